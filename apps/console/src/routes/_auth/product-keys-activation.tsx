import { createFileRoute } from '@tanstack/react-router';
import { ActivationPending } from '../../features/auth/ActivationPending';

export const Route = createFileRoute('/_auth/product-keys-activation')({
  component: ActivationPending,
});
