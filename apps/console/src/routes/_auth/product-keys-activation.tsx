import { createFileRoute } from '@tanstack/react-router';
import { ActivationPage } from '../../features/activation/ActivationPage';

export const Route = createFileRoute('/_auth/product-keys-activation')({
  component: ActivationPage,
});
