import { Col, Divider, Form, Input, Radio, Row, Select, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDrawer, useRecordDrawer } from '../../components/ui/FormDrawer';
import { useStatusOptions } from '../../components/ui/StatusTag';
import { PasswordHint, passwordRules } from '../../components/ui/PasswordHint';
import { useRoles, useRoleLabel } from '../../lib/appData';
import { useCenterOptions, useHospitalOptions } from '../../entities/org/options';
import { useLibraryTree, useSaveUser, useUser, type UserFormValues } from './api';
import { CONFIGURED_ROLES, configsFromRecord, configsToBody, type RoleConfigValues } from './roleConfig';

type Values = Omit<UserFormValues, 'role_configs'> & { role_configs?: RoleConfigValues };

export function UserFormDrawer({ id, open, onClose }: { id: number | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions();
  const drawer = useRecordDrawer<Values, NonNullable<ReturnType<typeof useUser>['data']>, UserFormValues>({
    open,
    id,
    record: useUser(open ? id : null),
    defaults: { status: 1, roles: [], center_ids: [], hospital_ids: [], role_configs: configsFromRecord(undefined) },
    fromRecord: (u) => ({
      username: u.username, name: u.name, phone: u.phone, email: u.email, work_no: u.work_no, status: u.status,
      roles: u.roles ?? [], center_ids: u.center_ids ?? [], hospital_ids: u.hospital_ids ?? [],
      role_configs: configsFromRecord(u.role_configs),
    }),
    save: useSaveUser(id),
    toBody: ({ role_configs, ...v }) => ({ ...v, role_configs: configsToBody(v.roles ?? [], role_configs, v.center_ids ?? [], v.hospital_ids ?? []) }),
    onClose,
  });
  const form = drawer.form;
  const roles = useRoles();
  const roleLabel = useRoleLabel();
  const centers = useCenterOptions();
  const hospitals = useHospitalOptions();
  const selectedRoles = Form.useWatch('roles', form) ?? [];
  const chosenCenters = Form.useWatch('center_ids', form) ?? [];
  const chosenHospitals = Form.useWatch('hospital_ids', form) ?? [];
  const configured = CONFIGURED_ROLES.filter((r) => selectedRoles.includes(r));
  const libraries = useLibraryTree(open && selectedRoles.includes('expert'));

  const req = (label: string) => [{ required: true, message: t('validation.required', { field: label }) }];
  return (
    <FormDrawer title={t(id === null ? 'user.create' : 'user.edit')} {...drawer} width={640} testId="user-drawer">
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="username" label={t('user.table.username')} rules={req(t('user.table.username'))}>
            <Input autoFocus disabled={id !== null} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="name" label={t('user.table.name')} rules={req(t('user.table.name'))}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
      {id === null && (
        <Form.Item name="password" label={t('user.password')} rules={passwordRules(t)} extra={<PasswordHint />}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="phone" label={t('user.table.phone')} rules={[{ pattern: /^[0-9+\-\s]{5,20}$/, message: t('validation.phone') }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="email" label={t('user.table.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="work_no" label={t('user.table.workNo')}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="status" label={t('user.table.status')}>
            <Radio.Group options={statusOptions} />
          </Form.Item>
        </Col>
      </Row>
      {/* A validator, not `required`: antd would put aria-required on the select's root, which has no role (axe: aria-allowed-attr). */}
      <Form.Item name="roles" label={t('user.table.roles')} rules={[{ validator: (_, v?: string[]) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('validation.required', { field: t('user.table.roles') })))) }]}>
        <Select mode="multiple" loading={roles.isLoading} options={(roles.data ?? []).map((r) => ({ value: r.role, label: roleLabel(r.role) }))} optionFilterProp="label" />
      </Form.Item>
      <Form.Item name="center_ids" label={t('user.table.centers')}>
        <Select mode="multiple" loading={centers.isLoading} options={centers.data} optionFilterProp="label" allowClear />
      </Form.Item>
      <Form.Item name="hospital_ids" label={t('user.table.hospitals')}>
        <Select mode="multiple" loading={hospitals.isLoading} options={hospitals.data} optionFilterProp="label" allowClear />
      </Form.Item>
      {configured.map((r) => (
        <div key={r} data-testid={`role-config-${r}`}>
          <Divider orientation="left" plain>
            {t('user.roleConfig', { role: roleLabel(r) })}
          </Divider>
          {r === 'expert' && (
            <>
              <Form.Item name={['role_configs', 'expert', 'subspecialties']} label={t('user.config.subspecialties')} extra={t('user.config.subspecialtiesHelp')}>
                <TreeSelect
                  multiple
                  treeData={libraries.data}
                  loading={libraries.isLoading}
                  treeDefaultExpandAll
                  showSearch
                  treeNodeFilterProp="title"
                  allowClear
                  placeholder={t('user.config.subspecialtiesPlaceholder')}
                  data-testid="config-subspecialties"
                />
              </Form.Item>
              <Form.Item name={['role_configs', 'expert', 'takes_cases']} label={t('user.config.takesCases')} valuePropName="checked" extra={t('user.config.takesCasesHelp')}>
                <Switch data-testid="config-takes-cases" />
              </Form.Item>
            </>
          )}
          {r === 'allocator' && (
            <Form.Item name={['role_configs', 'allocator', 'center_ids']} label={t('user.config.allocatorCenters')} extra={t('user.config.allocatorCentersHelp')}>
              <Select mode="multiple" options={(centers.data ?? []).filter((c) => chosenCenters.includes(c.value))} optionFilterProp="label" allowClear notFoundContent={t('user.config.chooseCentersFirst')} />
            </Form.Item>
          )}
          {r === 'site' && (
            <Form.Item name={['role_configs', 'site', 'site_id']} label={t('user.config.siteHospital')} extra={t('user.config.siteHospitalHelp')}>
              <Select options={(hospitals.data ?? []).filter((h) => chosenHospitals.includes(h.value))} optionFilterProp="label" showSearch allowClear notFoundContent={t('user.config.chooseHospitalsFirst')} />
            </Form.Item>
          )}
        </div>
      ))}
    </FormDrawer>
  );
}
