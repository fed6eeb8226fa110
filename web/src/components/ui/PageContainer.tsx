import type { ReactNode } from 'react';
import { Card, Flex, Typography } from 'antd';

interface Props {
  title: ReactNode;
  subtitle?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}

/** The standard page frame: title row and a card holding the content. */
export function PageContainer({ title, subtitle, extra, children }: Props) {
  return (
    <div style={{ padding: 20 }}>
      <Flex align="center" justify="space-between" style={{ marginBottom: 16 }} gap={12} wrap>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        {extra}
      </Flex>
      <Card styles={{ body: { padding: 20 } }} style={{ boxShadow: '0 1px 2px rgba(15,42,71,0.06)' }}>
        {children}
      </Card>
    </div>
  );
}
