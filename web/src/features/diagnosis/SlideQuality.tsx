// The expert grades the quality of each slide of their case (A–D; D needs a
// reason); the grade shows beside the slide for everyone who sees the case.
import { App, Button, Form, Input, Modal, Radio, Space } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { SLIDE_GRADES, judgementKey, type SlideGrade, type SlideJudgement } from '../../lib/slideQuality';
import { SlideGradeTag } from '../../components/slide/SlideGradeTag';
import { useApiError } from '../../components/ui/useApiError';

interface Values {
  grade: SlideGrade;
  reason?: string;
}

function useJudge(caseId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ slideId, prev, v }: { slideId: number; prev?: SlideJudgement; v: Values }) => {
      const body = { grade: v.grade, reason: (v.reason ?? '').trim() };
      return prev
        ? unwrap(await api.POST('/api/judge/slide/update', { body: { id: prev.id, ...body } }))
        : unwrap(await api.POST('/api/judge/slide/store', { body: { consult_id: caseId, slide_id: slideId, ...body } }));
    },
    onSettled: () => qc.invalidateQueries({ queryKey: judgementKey(caseId) }),
  });
}

/** The grade of one slide and, for the assigned expert, the button that judges it. */
export function SlideQualityCell({ caseId, slideId, name, j, canJudge }: { caseId: number; slideId: number; name: string; j?: SlideJudgement; canJudge: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const judge = useJudge(caseId);
  const grade = Form.useWatch('grade', form);

  const submit = async (v: Values) => {
    try {
      await judge.mutateAsync({ slideId, prev: j, v });
      setOpen(false);
      void message.success(t('slideQuality.saved'));
    } catch (e) {
      showError(e, form);
    }
  };

  return (
    <Space size={4}>
      <SlideGradeTag j={j} />
      {canJudge && (
        <Button type="link" size="small" onClick={() => setOpen(true)} data-testid={`judge-slide-${slideId}`}>
          {j ? t('slideQuality.change') : t('slideQuality.judge')}
        </Button>
      )}
      <Modal
        open={open}
        title={t('slideQuality.dialog', { name })}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={judge.isPending}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        okButtonProps={{ htmlType: 'submit', 'data-testid': 'judge-ok' } as Record<string, string>}
        modalRender={(dom) => (
          <Form form={form} layout="vertical" onFinish={submit} initialValues={{ grade: j?.grade, reason: j?.reason }} clearOnDestroy>
            {dom}
          </Form>
        )}
      >
        <Form.Item name="grade" label={t('slideQuality.gradeLabel')} rules={[{ required: true, message: t('slideQuality.gradeRequired') }]}>
          <Radio.Group optionType="button" buttonStyle="solid" data-testid="judge-grade">
            {SLIDE_GRADES.map((g) => (
              <Radio.Button key={g} value={g}>
                {t(`slideQuality.grade.${g}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('slideQuality.reason')}
          rules={[{ required: grade === 'D', whitespace: true, message: t('slideQuality.reasonRequired') }, { max: 500 }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount placeholder={t('slideQuality.reasonPlaceholder')} data-testid="judge-reason" />
        </Form.Item>
      </Modal>
    </Space>
  );
}
