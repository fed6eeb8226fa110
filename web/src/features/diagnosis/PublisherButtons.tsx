// The publisher's decision on a report in its hesitation period (spec 1 §2
// publisher, /consultation/publisher/publish|return): release it now, or
// return it to the expert with a reason.
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Space } from 'antd';
import { RollbackOutlined, VerifiedOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { useApiError } from '../../components/ui/useApiError';
import { caseKeys, type CaseRow } from '../../entities/case/api';
import { diagKeys } from './api';

function usePublisher() {
  const qc = useQueryClient();
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: diagKeys.all }), qc.invalidateQueries({ queryKey: caseKeys.all })]);
  return {
    publish: useMutation({
      mutationFn: async (id: number) => unwrap(await api.POST('/api/consultation/publisher/publish/{id}', { params: { path: { id } } })),
      onSettled: refresh,
    }),
    giveBack: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        unwrap(await api.POST('/api/consultation/publisher/return/{id}', { params: { path: { id } }, body: { reason } })),
      onSettled: refresh,
    }),
  };
}

export function PublisherButtons({ row }: { row: CaseRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const showError = useApiError();
  const { publish, giveBack } = usePublisher();
  const [returning, setReturning] = useState(false);
  const acts = row.actions ?? [];
  if (!acts.includes('publisher_publish') && !acts.includes('publisher_return')) return null;
  const onPublish = () =>
    modal.confirm({
      title: t('expertActions.publisher.confirmPublish', { name: row.patient_name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => publish.mutateAsync(row.id).then(() => void message.success(t('expertActions.publisher.published')), (e) => showError(e)),
    });
  return (
    <Space size={0}>
      {acts.includes('publisher_publish') && (
        <Button type="link" size="small" icon={<VerifiedOutlined />} onClick={onPublish} data-testid={`publisher-publish-${row.id}`}>
          {t('expertActions.publisher.publish')}
        </Button>
      )}
      {acts.includes('publisher_return') && (
        <Button type="link" size="small" danger icon={<RollbackOutlined />} onClick={() => setReturning(true)} data-testid={`publisher-return-${row.id}`}>
          {t('expertActions.publisher.return')}
        </Button>
      )}
      <Modal
        open={returning}
        title={t('expertActions.publisher.return')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={giveBack.isPending}
        onCancel={() => setReturning(false)}
        okButtonProps={{ htmlType: 'submit', form: `publisher-return-${row.id}` }}
        destroyOnHidden
      >
        <Form
          id={`publisher-return-${row.id}`}
          layout="vertical"
          preserve={false}
          onFinish={(v: { reason: string }) =>
            giveBack.mutateAsync({ id: row.id, reason: v.reason.trim() }).then(
              () => {
                setReturning(false);
                void message.success(t('expertActions.publisher.returned'));
              },
              (e) => showError(e),
            )
          }
        >
          <Form.Item name="reason" label={t('expertActions.publisher.reason')} rules={[{ required: true, whitespace: true, message: t('diagnosis.rule.reason') }]}>
            <Input.TextArea rows={4} maxLength={500} showCount autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
