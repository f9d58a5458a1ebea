import { QueryClient } from '@tanstack/react-query';
import { onSessionEnd } from './session';

/**
 * One QueryClient for the console. The HTTP client already retries (ky, per the spec) and reports
 * errors per request, so queries do not retry again and do not toast on their own.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    },
    mutations: {
      retry: false,
    },
  },
});

// Logout / lost session: drop every cached answer, the profile included.
onSessionEnd(() => queryClient.clear());
