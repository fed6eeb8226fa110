import { Empty, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { listResult } from '../../lib/api/list';
import { formatDateTime } from '../../lib/format';
import { formatSize } from './size';
import { SlideViewable } from './SlideViewable';

/** The hospital's uploaded slides that are free or already on this case; checked ones become slide_ids. */
export function SlidePicker({ caseId, value = [], onChange, id }: { caseId: number | null; value?: number[]; onChange?: (ids: number[]) => void; id?: string }) {
  const { t } = useTranslation();
  const slides = useQuery({
    queryKey: ['consultation', 'upload-slides'],
    queryFn: async () =>
      listResult(await api.GET('/api/slides/uploads', { params: { query: { page: 1, page_size: 1000, tab: 'uploaded', sort_by: JSON.stringify({ created_at: 'desc' }) } } })).rows,
    staleTime: 15_000,
  });
  const rows = (slides.data ?? []).filter((s) => s.status !== -1 && (s.consult_id == null || s.consult_id === caseId || value.includes(s.id)));
  return (
    <div id={id}>
      <Table
        size="small"
        rowKey="id"
        loading={slides.isLoading}
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={rows}
        rowSelection={{ selectedRowKeys: value, onChange: (keys) => onChange?.(keys.map(Number)) }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={slides.isError ? slides.error.message : t('case.slide.registerEmpty')} /> }}
        columns={[
          { key: 'filename', dataIndex: 'filename', title: t('case.slide.file'), ellipsis: true },
          { key: 'format', dataIndex: 'format', title: t('case.slide.format'), width: 90, render: (x: string) => (x ? x.toUpperCase() : '—') },
          { key: 'size', dataIndex: 'filesize', title: t('case.attachment.size'), width: 110, render: (x: number) => formatSize(x) },
          { key: 'created_at', dataIndex: 'created_at', title: t('case.slide.uploadedAt'), width: 170, render: formatDateTime },
          {
            key: 'viewable',
            title: t('case.slide.view'),
            width: 180,
            render: (_: unknown, s) => <SlideViewable viewable={s.viewable} error={s.error} />,
          },
        ]}
      />
      <Typography.Text type="secondary" style={{ fontSize: 13, display: 'block', margin: '6px 0 12px' }}>
        {t('case.slide.pickHint', { count: value.length })}
      </Typography.Text>
    </div>
  );
}
