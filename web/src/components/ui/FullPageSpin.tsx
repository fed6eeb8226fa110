import { Spin } from 'antd';

export function FullPageSpin() {
  return (
    <div style={{ position: 'fixed', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f3f6fa' }} data-testid="full-page-loading">
      <Spin size="large" />
    </div>
  );
}
