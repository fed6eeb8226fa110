import { useEffect, useState } from 'react';
import { App, Button, Checkbox, DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Modal, Select, Space, Tag, Typography, type SelectProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useApiError } from '../../components/ui/useApiError';
import { formatDateTime } from '../../lib/format';
import { BORROW_TYPES, useArchiveAction, useLendableCases, useLoan, useLoanAction, useRequestLoan, type ArchiveAction, type ArchiveRow, type Loan, type LoanAction, type RequestInput } from './api';

export const STATUS_COLOR: Record<string, string> = { checking: 'blue', passed: 'cyan', not_passed: 'red', borrowing: 'orange', returned: 'green' };
export const ARCHIVE_COLOR: Record<string, string> = { to_receive: 'default', not_archived: 'orange', archived: 'green' };

export function LoanStatusTag({ loan }: { loan: Loan }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <Tag className="tp-borrow-tag" color={STATUS_COLOR[loan.status]} data-testid="borrow-status">{t(`borrow.status.${loan.status}`)}</Tag>
      {loan.overdue && <Tag color="red" data-testid="borrow-overdue">{t('borrow.overdue')}</Tag>}
    </Space>
  );
}

/**
 * A Select for a required form field: the form item's aria-required would land
 * on the Select's outer div, where it is not allowed (its combobox input already
 * carries the field's name and state).
 */
function RequiredSelect({ 'aria-required': _required, ...props }: SelectProps & { 'aria-required'?: unknown }) {
  return <Select {...props} />;
}

type RequestValues = Omit<RequestInput, 'due_date'> & { due_date: Dayjs };

/** A site (or the center) asks to borrow a case's slides and blocks. */
export function RequestDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm<RequestValues>();
  const [search, setSearch] = useState('');
  const cases = useLendableCases(search);
  const request = useRequestLoan();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const required = (field: string) => [{ required: true, whitespace: true, message: t('validation.required', { field: t(`borrow.field.${field}`) }) }];
  const submit = async () => {
    const v = await form.validateFields();
    request.mutate(
      { ...v, due_date: v.due_date.format('YYYY-MM-DD'), slides: v.slides ?? 0, blocks: v.blocks ?? 0 },
      {
        onSuccess: () => {
          void message.success(t('borrow.done.request'));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('borrow.request')}
      width={520}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" onClick={() => void submit()} loading={request.isPending} data-testid="borrow-submit">
            {t('borrow.submit')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" initialValues={{ type: 'hospital', slides: 1, blocks: 0, due_date: dayjs().add(14, 'day') }}>
        <Form.Item name="consult_id" label={t('borrow.field.case')} rules={[{ required: true, message: t('validation.required', { field: t('borrow.field.case') }) }]}>
          <RequiredSelect
            showSearch
            filterOption={false}
            onSearch={setSearch}
            loading={cases.isFetching}
            placeholder={t('borrow.casePlaceholder')}
            notFoundContent={t('borrow.noCase')}
            options={(cases.data ?? []).map((c) => ({ value: c.id, label: `${c.consult_no} · ${c.patient_name}` }))}
            data-testid="borrow-case"
          />
        </Form.Item>
        <Form.Item name="type" label={t('borrow.field.type')} rules={[{ required: true }]}>
          <RequiredSelect options={BORROW_TYPES.map((x) => ({ value: x, label: t(`borrow.type.${x}`) }))} data-testid="borrow-type" />
        </Form.Item>
        <Space.Compact block>
          <Form.Item name="borrower" label={t('borrow.field.borrower')} rules={required('borrower')} style={{ flex: 1 }}>
            <Input maxLength={100} data-testid="borrow-borrower" />
          </Form.Item>
          <Form.Item name="borrower_phone" label={t('borrow.field.phone')} style={{ flex: 1, marginLeft: 12 }}>
            <Input maxLength={40} />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="purpose" label={t('borrow.field.purpose')} rules={required('purpose')}>
          <Input.TextArea rows={2} maxLength={500} data-testid="borrow-purpose" />
        </Form.Item>
        <Space size={12}>
          <Form.Item name="slides" label={t('borrow.field.slides')}>
            <InputNumber min={0} max={999} />
          </Form.Item>
          <Form.Item name="blocks" label={t('borrow.field.blocks')}>
            <InputNumber min={0} max={999} />
          </Form.Item>
          <Form.Item name="due_date" label={t('borrow.field.due')} rules={[{ required: true, message: t('validation.required', { field: t('borrow.field.due') }) }]}>
            <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="borrow-due" />
          </Form.Item>
        </Space>
        <Form.Item name="items" label={t('borrow.field.items')}>
          <Input maxLength={500} placeholder={t('borrow.itemsPlaceholder')} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** The dialog of one loan action: the fields it needs, then the call. */
export function LoanActionDialog({ target, onClose }: { target: { loan: Loan; action: LoanAction } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm();
  const act = useLoanAction();
  const damaged = Form.useWatch('damaged', form);
  useEffect(() => form.resetFields(), [target, form]);
  if (!target) return null;
  const { loan, action } = target;
  const ok = async () => {
    const v = await form.validateFields();
    const body = action === 'extend' ? { ...v, due_date: (v.due_date as Dayjs).format('YYYY-MM-DD') } : v;
    act.mutate(
      { id: loan.id, action, body },
      {
        onSuccess: () => {
          void message.success(t(`borrow.done.${action}`));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  return (
    <Modal open title={`${t(`borrow.action.${action}`)} · ${loan.borrow_no}`} onCancel={onClose} onOk={() => void ok()} confirmLoading={act.isPending} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        {loan.consult_no} · {loan.patient_name} · {t('borrow.material', { slides: loan.slides, blocks: loan.blocks })} · {t('borrow.field.due')} {loan.due_date}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ deposit: 0, damaged: false, compensation: 0 }}>
        {action === 'approve' && <Typography.Paragraph>{t('borrow.approveHint')}</Typography.Paragraph>}
        {action === 'reject' && (
          <Form.Item name="reason" label={t('borrow.field.reason')} rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('borrow.field.reason') }) }]}>
            <Input.TextArea rows={3} maxLength={500} autoFocus data-testid="borrow-reason" />
          </Form.Item>
        )}
        {action === 'lend' && (
          <Space size={12}>
            <Form.Item name="deposit" label={t('borrow.field.deposit')}>
              <InputNumber min={0} max={1000000} data-testid="borrow-deposit" />
            </Form.Item>
            <Form.Item name="payee" label={t('borrow.field.payee')}>
              <Input maxLength={100} data-testid="borrow-payee" />
            </Form.Item>
          </Space>
        )}
        {action === 'extend' && (
          <>
            <Typography.Paragraph>{t('borrow.extendHint')}</Typography.Paragraph>
            <Form.Item name="due_date" label={t('borrow.field.newDue')} rules={[{ required: true, message: t('validation.required', { field: t('borrow.field.newDue') }) }]}>
              <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} data-testid="borrow-new-due" />
            </Form.Item>
            <Form.Item name="reason" label={t('borrow.field.extendReason')}>
              <Input.TextArea rows={2} maxLength={500} data-testid="borrow-extend-reason" />
            </Form.Item>
          </>
        )}
        {action === 'return' && (
          <>
            <Form.Item name="damaged" valuePropName="checked">
              <Checkbox data-testid="borrow-damaged">{t('borrow.field.damaged')}</Checkbox>
            </Form.Item>
            {damaged && (
              <Form.Item name="compensation" label={t('borrow.field.compensation')}>
                <InputNumber min={0} max={1000000} />
              </Form.Item>
            )}
            <Form.Item name="note" label={t('borrow.field.note')}>
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** A loan's details. */
export function LoanDrawer({ loan: row, onClose }: { loan: Loan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const one = useLoan(row?.id);
  const loan = row && one.data?.id === row.id ? one.data : row;
  const changes = loan?.due_changes ?? [];
  return (
    <Drawer open={!!loan} onClose={onClose} title={loan ? `${t('borrow.detail')} · ${loan.borrow_no}` : ''} width={560} destroyOnHidden>
      {loan && (
        <Descriptions column={1} size="small" bordered labelStyle={{ width: 140 }}>
          <Descriptions.Item label={t('borrow.field.status')}><LoanStatusTag loan={loan} /></Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.case')}>{loan.consult_no} · {loan.patient_name}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.hospital')}>{loan.hospital_name}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.type')}>{t(`borrow.type.${loan.type}`)}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.borrower')}>{loan.borrower} {loan.borrower_phone}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.purpose')}>{loan.purpose}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.material')}>{t('borrow.material', { slides: loan.slides, blocks: loan.blocks })} {loan.items}</Descriptions.Item>
          <Descriptions.Item label={t('borrow.field.due')}>
            <span className={loan.overdue ? 'tp-borrow-overdue-date' : undefined} data-testid="borrow-detail-due">{loan.due_date}</span>
          </Descriptions.Item>
          {changes.length > 0 && (
            <Descriptions.Item label={t('borrow.field.dueChanges')}>
              <ul className="tp-borrow-due-changes" data-testid="borrow-due-changes">
                {changes.map((c) => (
                  <li key={c.changed_at}>
                    {t('borrow.dueChange', { from: c.from_date, to: c.to_date, who: c.changed_by, when: formatDateTime(c.changed_at) })}
                    {c.reason && <Typography.Text type="secondary"> · {c.reason}</Typography.Text>}
                  </li>
                ))}
              </ul>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('borrow.field.requestedBy')}>{loan.requested_by} · {formatDateTime(loan.created_at)}</Descriptions.Item>
          {loan.reviewed_at && <Descriptions.Item label={t('borrow.field.reviewedBy')}>{loan.reviewed_by} · {formatDateTime(loan.reviewed_at)} {loan.review_note}</Descriptions.Item>}
          {loan.lent_at && <Descriptions.Item label={t('borrow.field.lentBy')}>{loan.lent_by} · {formatDateTime(loan.lent_at)} · {t('borrow.field.deposit')} {loan.deposit} {loan.payee}</Descriptions.Item>}
          {loan.returned_at && (
            <Descriptions.Item label={t('borrow.field.returnedBy')}>
              {loan.returned_by} · {formatDateTime(loan.returned_at)} {loan.damaged ? t('borrow.damagedText', { amount: loan.compensation }) : ''} {loan.return_note}
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </Drawer>
  );
}

const ARCHIVE_TYPES = ['slide', 'block', 'slide_block'] as const;

/** The dialog of one archive action. */
export function ArchiveActionDialog({ target, onClose }: { target: { row: ArchiveRow; action: ArchiveAction } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm();
  const act = useArchiveAction();
  useEffect(() => form.resetFields(), [target, form]);
  if (!target) return null;
  const { row, action } = target;
  const ok = async () => {
    const body = await form.validateFields();
    act.mutate(
      { id: row.consult_id, action, body },
      {
        onSuccess: () => {
          void message.success(t(`borrow.done.${action}`));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  const storing = action === 'store' || action === 'rearchive';
  return (
    <Modal open title={`${t(`borrow.action.${action}`)} · ${row.consult_no}`} onCancel={onClose} onOk={() => void ok()} confirmLoading={act.isPending} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ source: row.hospital_name, room: row.room, box_no: row.box_no, locker_no: row.locker_no, archive_no: row.archive_no, type: row.type || 'slide' }}
      >
        {action === 'receive' && (
          <Form.Item name="source" label={t('borrow.field.source')}>
            <Input maxLength={200} />
          </Form.Item>
        )}
        {storing && (
          <>
            <Form.Item name="type" label={t('borrow.field.archiveType')}>
              <Select options={ARCHIVE_TYPES.map((x) => ({ value: x, label: t(`borrow.archiveType.${x}`) }))} />
            </Form.Item>
            <Form.Item name="room" label={t('borrow.field.room')} rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('borrow.field.room') }) }]}>
              <Input maxLength={100} data-testid="archive-room" />
            </Form.Item>
            <Space size={12}>
              <Form.Item name="box_no" label={t('borrow.field.box')}>
                <Input maxLength={100} data-testid="archive-box" />
              </Form.Item>
              <Form.Item name="locker_no" label={t('borrow.field.locker')}>
                <Input maxLength={100} data-testid="archive-locker" />
              </Form.Item>
              <Form.Item name="archive_no" label={t('borrow.field.archiveNo')}>
                <Input maxLength={100} />
              </Form.Item>
            </Space>
          </>
        )}
        {action === 'undo' && (
          <Form.Item name="reason" label={t('borrow.field.undoReason')} rules={[{ required: true, whitespace: true, message: t('validation.required', { field: t('borrow.field.undoReason') }) }]}>
            <Input.TextArea rows={3} maxLength={500} autoFocus />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
