import { useState } from 'react';
import { Card, Col, Empty, Flex, Input, List, Pagination, Row, Space, Typography } from 'antd';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from '../../lib/searchParams';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { useDebounced } from '../../components/ui/list/useDebounced';
import { formatDateTime } from '../../lib/format';
import { fetchCases, useCase } from '../../entities/case/api';
import { CaseStatusTag } from '../../entities/case/tags';
import { CaseMessages } from '../../entities/case/CaseMessages';
import { CaseHeadline } from './CaseDetail';

const PAGE = 20;

/** Cases with their message threads: the list on the left, the thread on the right. */
export default function MessagePage() {
  const { t } = useTranslation();
  const [sp, setSp] = useSearchParams();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim(), 250);
  const selected = Number(sp.get('case')) || null;
  const cases = useQuery({
    queryKey: ['consultation', 'list', 'message', q, page],
    queryFn: () => fetchCases({ page, page_size: PAGE, search: q || undefined, sort_by: JSON.stringify({ updated_at: 'desc' }) }),
    placeholderData: keepPreviousData,
  });
  const detail = useCase(selected);
  const select = (id: number) => setSp((p) => { const n = new URLSearchParams(p); n.set('case', String(id)); return n; }, { replace: true });

  return (
    <PageContainer title={t('case.message.title')} subtitle={t('case.message.subtitle')}>
      <Row gutter={16}>
        <Col xs={24} lg={9} xxl={8}>
          <Input.Search allowClear placeholder={t('case.searchPlaceholder')} value={search} onChange={(e) => { setSearch(e.target.value); setPage(1); }} style={{ marginBottom: 12 }} aria-label={t('case.searchPlaceholder')} />
          <div style={{ border: '1px solid #e6ebf2', borderRadius: 8, maxHeight: 'calc(100vh - 320px)', minHeight: 360, overflowY: 'auto' }}>
            <List
              loading={cases.isFetching && !cases.data}
              dataSource={cases.data?.rows ?? []}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.empty')} /> }}
              renderItem={(r) => (
                <List.Item
                  key={r.id}
                  onClick={() => select(r.id)}
                  style={{ cursor: 'pointer', padding: '10px 14px', background: r.id === selected ? '#e8f1fb' : undefined, borderInlineStart: r.id === selected ? '3px solid #1f6fc5' : '3px solid transparent' }}
                  data-testid={`message-case-${r.id}`}
                >
                  <Flex vertical style={{ width: '100%' }} gap={2}>
                    <Flex justify="space-between" gap={8}>
                      <Typography.Text strong ellipsis>
                        {r.patient_name || '—'} <Typography.Text type="secondary" className="tp-mono">{r.pathology_number}</Typography.Text>
                      </Typography.Text>
                      <CaseStatusTag label={r.status_label} />
                    </Flex>
                    <Flex justify="space-between" gap={8}>
                      <Typography.Text type="secondary" ellipsis style={{ fontSize: 13 }}>
                        {r.consult_no || t('case.noNumberYet')} · {r.center_name || r.hospital_name}
                      </Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                        {formatDateTime(r.updated_at).slice(5, 16)}
                      </Typography.Text>
                    </Flex>
                  </Flex>
                </List.Item>
              )}
            />
          </div>
          <Pagination size="small" simple current={page} pageSize={PAGE} total={cases.data?.total ?? 0} onChange={setPage} style={{ marginTop: 12, textAlign: 'center' }} />
        </Col>
        <Col xs={24} lg={15} xxl={16}>
          {selected ? (
            <Card size="small" title={detail.data ? <CaseHeadline d={detail.data} /> : t('case.message.thread')} styles={{ body: { padding: 16 } }}>
              <CaseMessages caseId={selected} height="calc(100vh - 460px)" />
            </Card>
          ) : (
            <Flex align="center" justify="center" style={{ minHeight: 400, border: '1px dashed #d9e2ec', borderRadius: 8 }}>
              <Space direction="vertical" align="center">
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('case.message.pick')} />
              </Space>
            </Flex>
          )}
        </Col>
      </Row>
    </PageContainer>
  );
}
