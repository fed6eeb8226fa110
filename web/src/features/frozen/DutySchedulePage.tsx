// /schedule/duty: attendance groups (name, participants, period name, duty
// office, shifts of one to three sessions a day), the scheduling cycle (at
// most 31 days, from today on) and the month calendar of who is on duty.
import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Col, DatePicker, Empty, Form, Input, InputNumber, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { CalendarOutlined, LeftOutlined, MinusCircleOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/ui/PageContainer';
import { FormDrawer } from '../../components/ui/FormDrawer';
import { useApiError } from '../../components/ui/useApiError';
import { useCenterOptions } from '../../entities/org/options';
import { useCenterExperts, useDuty, useGroups, useSaveGroup, useSchedule, type AttendanceGroup, type DutyEntry, type GroupInput } from './api';
import { addDays, cycleDays, monthGrid } from './clock';

export default function DutySchedulePage() {
  const { t } = useTranslation();
  const groups = useGroups();
  const [editing, setEditing] = useState<AttendanceGroup | 'new' | null>(null);
  const [scheduling, setScheduling] = useState<AttendanceGroup | null>(null);
  return (
    <PageContainer title={t('duty.title')} subtitle={t('duty.subtitle')}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card
          size="small"
          title={t('duty.groups')}
          extra={
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="duty-group-create">
              {t('duty.createGroup')}
            </Button>
          }
        >
          {(groups.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('duty.noGroups')} />
          ) : (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={groups.data ?? []}
              columns={[
                { key: 'name', dataIndex: 'name', title: t('duty.field.name'), width: 160 },
                { key: 'period_name', dataIndex: 'period_name', title: t('duty.field.period'), width: 110 },
                { key: 'office', dataIndex: 'office', title: t('duty.field.office'), width: 160, render: (x: string) => x || '—' },
                { key: 'members', title: t('duty.field.members'), render: (_: unknown, g: AttendanceGroup) => g.members?.map((m) => <Tag key={m.id}>{m.name}</Tag>) },
                {
                  key: 'shifts',
                  title: t('duty.field.shifts'),
                  render: (_: unknown, g: AttendanceGroup) =>
                    g.shifts?.map((s) => (
                      <Tag key={s.id} color="blue" bordered={false}>
                        {s.name} {s.sessions?.map((x) => `${x.start}–${x.end}`).join(', ')}
                      </Tag>
                    )),
                },
                {
                  key: 'actions',
                  title: t('common.actions'),
                  width: 170,
                  render: (_: unknown, g: AttendanceGroup) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing(g)}>
                        {t('common.edit')}
                      </Button>
                      <Button type="link" size="small" icon={<CalendarOutlined />} onClick={() => setScheduling(g)} data-testid={`duty-schedule-${g.id}`}>
                        {t('duty.schedule')}
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          )}
        </Card>
        <MonthCalendar />
      </Space>
      <GroupDrawer group={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
      <ScheduleDrawer group={scheduling} onClose={() => setScheduling(null)} />
    </PageContainer>
  );
}

function MonthCalendar() {
  const { t } = useTranslation();
  const [month, setMonth] = useState(() => dayjs().format('YYYY-MM'));
  const weeks = useMemo(() => monthGrid(month), [month]);
  const duty = useDuty(weeks[0][0], weeks.at(-1)!.at(-1)!);
  const byDay = useMemo(() => {
    const m = new Map<string, DutyEntry[]>();
    for (const d of duty.data ?? []) m.set(d.day, [...(m.get(d.day) ?? []), d]);
    return m;
  }, [duty.data]);
  const today = dayjs().format('YYYY-MM-DD');
  const shift = (n: number) => setMonth(dayjs(`${month}-01`).add(n, 'month').format('YYYY-MM'));
  const weekdays = [1, 2, 3, 4, 5, 6, 0].map((d) => dayjs().day(d).format('dd'));
  return (
    <Card
      size="small"
      title={t('duty.calendar')}
      extra={
        <Space>
          <Button size="small" icon={<LeftOutlined />} onClick={() => shift(-1)} aria-label={t('duty.prevMonth')} />
          <Typography.Text strong data-testid="duty-month">{month}</Typography.Text>
          <Button size="small" icon={<RightOutlined />} onClick={() => shift(1)} aria-label={t('duty.nextMonth')} />
        </Space>
      }
    >
      <table className="tp-duty-grid" aria-label={t('duty.calendar')} style={{ width: '100%', tableLayout: 'fixed', borderCollapse: 'separate', borderSpacing: 4 }}>
        <thead>
          <tr>
            {weekdays.map((w) => (
              <th key={w} scope="col" style={{ textAlign: 'center', fontWeight: 600, padding: 4 }}>
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((d) => {
                const entries = byDay.get(d) ?? [];
                const inMonth = d.startsWith(month);
                return (
                  <td
                    key={d}
                    data-testid={`duty-day-${d}`}
                    aria-current={d === today ? 'date' : undefined}
                    style={{
                      verticalAlign: 'top',
                      height: 84,
                      padding: 6,
                      borderRadius: 6,
                      border: d === today ? '2px solid #1677ff' : '1px solid rgba(0,0,0,0.08)',
                      background: !inMonth ? '#f5f5f5' : d < today ? '#fafafa' : undefined,
                    }}
                  >
                    <div style={{ fontSize: 12, color: inMonth ? '#262626' : '#595959' }}>{Number(d.slice(8))}</div>
                    {entries.map((e) => (
                      <div key={e.id} style={{ fontSize: 12, lineHeight: '18px' }} title={e.office}>
                        <Tag color="green" bordered={false} style={{ color: '#135200', marginInlineEnd: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                          {e.user_name} {dayjs(e.starts_at).format('HH:mm')}–{dayjs(e.ends_at).format('HH:mm')}
                        </Tag>
                      </div>
                    ))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <Typography.Paragraph style={{ color: '#595959', marginTop: 8, marginBottom: 0 }}>
        {t('duty.calendarHint')}
      </Typography.Paragraph>
    </Card>
  );
}

type GroupValues = Omit<GroupInput, 'shifts'> & { shifts: { name: string; sessions: { start: string; end: string }[] }[] };

function GroupDrawer({ group, open, onClose }: { group: AttendanceGroup | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const centers = useCenterOptions();
  const [form] = Form.useForm<GroupValues>();
  const center = Form.useWatch('center_id', form);
  const experts = useCenterExperts(center ?? null);
  const save = useSaveGroup(group?.id ?? null);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (group) {
      form.setFieldsValue({
        center_id: group.center_id,
        name: group.name,
        period_name: group.period_name,
        office: group.office,
        member_ids: group.members?.map((m) => m.id) ?? [],
        shifts: group.shifts?.map((s) => ({ name: s.name, sessions: s.sessions ?? [] })) ?? [],
      });
    } else {
      const only = centers.data?.length === 1 ? centers.data[0].value : undefined;
      form.setFieldsValue({ center_id: only as number | undefined, shifts: [{ name: t('duty.defaultShift'), sessions: [{ start: '08:00', end: '17:30' }] }] });
    }
  }, [open, group, form, centers.data, t]);
  const req = (field: string) => [{ required: true, message: t('validation.required', { field }) }];
  const finish = (v: GroupValues) =>
    save.mutate(
      { ...v, version: group?.version },
      {
        onSuccess: () => {
          void message.success(t('common.saved'));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  return (
    <FormDrawer title={t(group ? 'duty.editGroup' : 'duty.createGroup')} open={open} form={form} saving={save.isPending} onClose={onClose} onFinish={finish} testId="duty-group-drawer" width={620}>
      <Form.Item name="center_id" label={t('frozen.field.center')} rules={req(t('frozen.field.center'))}>
        <Select options={centers.data ?? []} disabled={!!group} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label={t('duty.field.name')} rules={req(t('duty.field.name'))}>
            <Input maxLength={100} data-testid="duty-group-name" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="period_name" label={t('duty.field.period')} rules={req(t('duty.field.period'))}>
            <Input maxLength={100} data-testid="duty-group-period" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="office" label={t('duty.field.office')}>
        <Input maxLength={200} data-testid="duty-group-office" />
      </Form.Item>
      <Form.Item name="member_ids" label={t('duty.field.members')} rules={req(t('duty.field.members'))}>
        <Select mode="multiple" options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))} loading={experts.isLoading} data-testid="duty-group-members" />
      </Form.Item>
      <Form.List name="shifts">
        {(fields, { add, remove }) => (
          <>
            <Typography.Text strong>{t('duty.field.shifts')}</Typography.Text>
            {fields.map((f) => (
              <Card key={f.key} size="small" style={{ marginTop: 8 }} extra={<MinusCircleOutlined onClick={() => remove(f.name)} aria-label={t('common.delete')} />}
                title={
                  <Form.Item name={[f.name, 'name']} noStyle rules={req(t('duty.field.shiftName'))}>
                    <Input size="small" style={{ width: 200 }} placeholder={t('duty.field.shiftName')} aria-label={t('duty.field.shiftName')} />
                  </Form.Item>
                }
              >
                <Form.List name={[f.name, 'sessions']}>
                  {(ss, { add: addS, remove: removeS }) => (
                    <Space direction="vertical" style={{ width: '100%' }}>
                      {ss.map((s, i) => (
                        <Space key={s.key} align="baseline">
                          <Typography.Text style={{ color: '#595959' }}>{t('duty.session', { n: i + 1 })}</Typography.Text>
                          <Form.Item name={[s.name, 'start']} noStyle rules={[{ required: true, pattern: /^\d{2}:\d{2}$/, message: t('duty.timeFormat') }]}>
                            <Input size="small" style={{ width: 80 }} placeholder="08:00" aria-label={t('duty.start')} />
                          </Form.Item>
                          –
                          <Form.Item name={[s.name, 'end']} noStyle rules={[{ required: true, pattern: /^\d{2}:\d{2}$/, message: t('duty.timeFormat') }]}>
                            <Input size="small" style={{ width: 80 }} placeholder="12:00" aria-label={t('duty.end')} />
                          </Form.Item>
                          {ss.length > 1 && <MinusCircleOutlined onClick={() => removeS(s.name)} aria-label={t('common.delete')} />}
                        </Space>
                      ))}
                      {ss.length < 3 && (
                        <Button size="small" type="dashed" icon={<PlusOutlined />} onClick={() => addS({ start: '', end: '' })}>
                          {t('duty.addSession')}
                        </Button>
                      )}
                    </Space>
                  )}
                </Form.List>
              </Card>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add({ name: '', sessions: [{ start: '08:00', end: '12:00' }] })}>
              {t('duty.addShift')}
            </Button>
          </>
        )}
      </Form.List>
    </FormDrawer>
  );
}

type ScheduleValues = { start: Dayjs; days: number; grid: Record<string, Record<string, number | undefined>> };

function ScheduleDrawer({ group, onClose }: { group: AttendanceGroup | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const showError = useApiError();
  const [form] = Form.useForm<ScheduleValues>();
  const schedule = useSchedule();
  const start = Form.useWatch('start', form);
  const days = Form.useWatch('days', form);
  useEffect(() => {
    if (group) {
      form.resetFields();
      form.setFieldsValue({ start: dayjs(), days: 7 });
    }
  }, [group, form]);
  const cycle = useMemo(() => (start && days && days <= 31 ? cycleDays(start.format('YYYY-MM-DD'), days) : []), [start, days]);
  const fillAll = () => {
    const first = group?.shifts?.[0]?.id;
    if (!first || !group) return;
    const grid: ScheduleValues['grid'] = {};
    cycle.forEach((d, i) => {
      const m = group.members?.[i % (group.members?.length || 1)];
      if (m) grid[d] = { [m.id]: first };
    });
    form.setFieldsValue({ grid });
  };
  const finish = (v: ScheduleValues) => {
    const assignments = Object.entries(v.grid ?? {}).flatMap(([day, row]) =>
      Object.entries(row ?? {})
        .filter(([, shift]) => shift)
        .map(([user, shift]) => ({ day, user_id: Number(user), shift_id: shift! })),
    );
    schedule.mutate(
      { group_id: group!.id, version: group!.version, start: v.start.format('YYYY-MM-DD'), days: v.days, assignments: assignments.filter((a) => cycle.includes(a.day)) },
      {
        onSuccess: () => {
          void message.success(t('duty.scheduled'));
          onClose();
        },
        onError: (e) => showError(e, form),
      },
    );
  };
  return (
    <FormDrawer title={t('duty.scheduleOf', { name: group?.name ?? '' })} open={!!group} form={form} saving={schedule.isPending} onClose={onClose} onFinish={finish} testId="duty-schedule-drawer" width={720}>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="start" label={t('duty.field.start')} rules={[{ required: true, message: t('validation.required', { field: t('duty.field.start') }) }]}>
            <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="days" label={t('duty.field.days')} extra={t('duty.daysHint')} rules={[{ required: true, message: t('validation.required', { field: t('duty.field.days') }) }]}>
            <InputNumber min={1} max={31} precision={0} style={{ width: '100%' }} data-testid="duty-days" />
          </Form.Item>
        </Col>
      </Row>
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" onClick={fillAll} data-testid="duty-fill">
          {t('duty.rotate')}
        </Button>
        <Typography.Text style={{ color: '#595959' }}>{group?.office ? t('duty.officeIs', { office: group.office }) : ''}</Typography.Text>
      </Space>
      <Table
        size="small"
        rowKey={(d) => d}
        pagination={false}
        dataSource={cycle}
        scroll={{ y: 420 }}
        columns={[
          { key: 'day', title: t('duty.day'), width: 130, render: (_: unknown, d: string) => `${d} ${dayjs(d).format('dd')}` },
          ...(group?.members ?? []).map((m) => ({
            key: String(m.id),
            title: m.name,
            render: (_: unknown, d: string) => (
              <Form.Item name={['grid', d, String(m.id)]} noStyle>
                <Select allowClear size="small" style={{ width: '100%' }} placeholder={t('duty.offDuty')} aria-label={`${m.name} ${d}`} data-testid={`duty-cell-${d}-${m.id}`}
                  options={(group?.shifts ?? []).map((s) => ({ value: s.id, label: `${s.name} ${s.sessions?.map((x) => `${x.start}–${x.end}`).join(', ')}` }))} />
              </Form.Item>
            ),
          })),
        ]}
      />
      <Typography.Paragraph style={{ color: '#595959', marginTop: 8 }}>
        {t('duty.pastHint', { until: addDays(dayjs().format('YYYY-MM-DD'), -1) })}
      </Typography.Paragraph>
    </FormDrawer>
  );
}
