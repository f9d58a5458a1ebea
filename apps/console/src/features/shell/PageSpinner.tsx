import { Spin } from 'antd';

/** Pending state of a route (shown by the router after a short delay). */
export function PageSpinner() {
  return (
    <div style={{ padding: 64, textAlign: 'center' }}>
      <Spin size="large" />
    </div>
  );
}
