// The state of the case registration form (/case/register/:id): the case or the
// defaults it is filled from, the hospital's choices, the next pathology number,
// the ID-card autofill and the three ways of saving (draft, save, save and charge).
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { App, Form } from 'antd';
import dayjs from 'dayjs';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/errors';
import { useAuthInfo } from '../../../lib/appData';
import { defaultFixative as fixativeFor, useCase, useFormOptions } from '../../../entities/case/api';
import { useHospital } from '../../../entities/org/api';
import { nextPathologyNumber, useCenterExperts, useLibraries, useSaveCase, type SaveMode } from '../api';
import { parseIdCard } from '../validators';
import { useCaseActions } from '../useCaseActions';
import { bodyFromValues, emptySpecimen, toNamePath, valuesFromDetail, type Values } from './form';
import { ChargeStatus } from '../../../entities/case/codes';
import { hasRole } from '../../../lib/access';

export function useRegisterForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const param = useParams().id;
  const id = param && param !== 'new' ? Number(param) : null;
  const [form] = Form.useForm();
  const [quick, setQuick] = useState(false);
  const [summary, setSummary] = useState<string[]>([]);
  const draftMode = useRef(false);
  const detail = useCase(id);
  const info = useAuthInfo();
  const hospitalRef = info.data?.hospitals?.[0];
  const hospital = useHospital(hospitalRef?.id);
  const libs = useLibraries();
  const save = useSaveCase();
  const { run, holder } = useCaseActions();
  const centerId = Form.useWatch('center_id', form);
  const libraryId = Form.useWatch('library_id', form);
  const idType = Form.useWatch('id_type', form) ?? 'id_card';
  const gender = Form.useWatch('gender', form);
  const experts = useCenterExperts(centerId, libraryId);
  const infectious = !!Form.useWatch('infectious_specimen', form);
  const formOptions = useFormOptions(centerId).data;
  const defaultFixative = fixativeFor(formOptions, findLibrary(libs.data, libraryId)?.report_kind);
  const expertSelect = hospital.data?.expert_select ?? 0;
  const centers = useMemo(() => hospital.data?.centers ?? info.data?.centers ?? [], [hospital.data, info.data]);
  const [numbering, setNumbering] = useState(false);
  const locked = !!id && !!detail.data && !(detail.data.actions ?? []).includes('update');
  // A clinician (spec 1 §2 Other roles) fills in what they know — the patient,
  // clinical history, question and specimens — and sends the request to the
  // hospital's site staff, who complete, charge and submit it.
  const roleNames = (info.data?.roles ?? []).map((r) => r.role);
  const clinician = hasRole(roleNames, 'clinical') && !hasRole(roleNames, ['site', 'uploader']);
  const home = clinician ? '/case/clinical' : hasRole(roleNames, 'site') ? '/case/manage' : hasRole(roleNames, 'uploader') ? '/case/uploader' : '/case/manage';

  // Fill the form once: from the saved case, or defaults for a new one.
  const filled = useRef<number | 'new' | null>(null);
  useEffect(() => {
    if (id === null && filled.current !== 'new' && hospital.data !== undefined) {
      filled.current = 'new';
      form.setFieldsValue({
        age_unit: 'year',
        id_type: 'id_card',
        gender: undefined,
        inspection_hospital: hospital.data?.name ?? hospitalRef?.name,
        inspection_date: dayjs(),
        specimens: [emptySpecimen()],
        attachments: [],
        slide_ids: [],
        center_id: centers.length === 1 ? centers[0].id : undefined,
        expert_id: hospital.data?.default_expert_id ?? undefined,
        expedite: false,
        secret: false,
      });
    } else if (id !== null && detail.data && filled.current !== id) {
      filled.current = id;
      form.resetFields();
      form.setFieldsValue(valuesFromDetail(detail.data));
    }
  }, [id, detail.data, hospital.data, hospitalRef, centers, form]);
  // A new case with no hospital record (e.g. the lookup failed) still gets defaults.
  useEffect(() => {
    if (id === null && hospital.isError && filled.current !== 'new') {
      filled.current = 'new';
      form.setFieldsValue({ age_unit: 'year', id_type: 'id_card', inspection_hospital: hospitalRef?.name, inspection_date: dayjs(), specimens: [emptySpecimen()], attachments: [], slide_ids: [] });
    }
  }, [id, hospital.isError, hospitalRef, form]);

  const suggestNumber = async () => {
    if (!libraryId) return void message.warning(t('case.register.pickLibraryFirst'));
    setNumbering(true);
    try {
      form.setFieldsValue({ pathology_number: await nextPathologyNumber(libraryId) });
      void form.validateFields(['pathology_number']);
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setNumbering(false);
    }
  };

  const onIdNumber = () => {
    if ((form.getFieldValue('id_type') ?? 'id_card') !== 'id_card') return;
    const info = parseIdCard(form.getFieldValue('id_number') ?? '');
    if (!info) return;
    const patch: Partial<Values> = {};
    if (!form.getFieldValue('birthday')) patch.birthday = dayjs(info.birthday);
    if (!form.getFieldValue('gender')) patch.gender = info.gender;
    if (!form.getFieldValue('age')) patch.age = String(Math.max(0, dayjs().diff(dayjs(info.birthday), 'year')));
    form.setFieldsValue(patch);
  };

  const submit = async (mode: SaveMode | 'charge') => {
    draftMode.current = mode === 'draft';
    setSummary([]);
    let values: Values;
    try {
      values = (await form.validateFields()) as Values;
    } catch (e) {
      const errs = (e as { errorFields?: { name: (string | number)[]; errors: string[] }[] }).errorFields ?? [];
      if (errs[0]) form.scrollToField(errs[0].name, { block: 'center' });
      void message.error(t('case.register.fixErrors', { count: errs.length }));
      return;
    } finally {
      draftMode.current = false;
    }
    const body = bodyFromValues({ ...form.getFieldsValue(true), ...values });
    try {
      const saved = await save.mutateAsync({ id, mode: mode === 'draft' ? 'draft' : 'save', body });
      if (clinician) {
        void message.success(t('case.clinical.sent'));
        navigate(home);
        return;
      }
      if (mode === 'draft') {
        void message.success(t('case.register.draftSaved'));
        if (!id) navigate(`/case/register/${saved.id}`, { replace: true });
        filled.current = saved.id;
        return;
      }
      void message.success(t('case.register.saved'));
      const ref = { id: saved.id, consult_no: saved.consult_no || saved.pathology_number, patient_name: saved.patient_name, charge_status: saved.charge_status, center_id: saved.center_id };
      if (mode === 'charge') {
        filled.current = saved.id;
        if (!id) navigate(`/case/register/${saved.id}`, { replace: true });
        run(saved.charge_status === ChargeStatus.Charged ? 'submit' : 'charge_submit', [ref], { onDone: () => navigate(home) });
      } else navigate(home);
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length) {
        form.setFields(Object.entries(e.fieldErrors).map(([name, errors]) => ({ name: toNamePath(name), errors })));
        setSummary(Object.entries(e.fieldErrors).flatMap(([, errs]) => errs));
        const first = Object.keys(e.fieldErrors)[0];
        form.scrollToField(toNamePath(first), { block: 'center' });
      }
      void message.error(e instanceof Error ? e.message : String(e));
    }
  };

  // Ctrl+S saves a draft, Ctrl+Enter saves.
  const onKeyDown = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      void submit('draft');
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void submit('save');
    }
  };

  return {
    id, form, quick, setQuick, summary, setSummary, draftMode, detail, libs, save, holder,
    centerId, idType, gender, experts, expertSelect, centers, numbering, locked, clinician, home, infectious, formOptions, defaultFixative,
    suggestNumber, onIdNumber, submit, onKeyDown,
  };
}

export type RegisterForm = ReturnType<typeof useRegisterForm>;

type LibraryNode = { id: number; report_kind?: string; children?: LibraryNode[] | null };

/** The library id among libs and their sub-libraries. */
function findLibrary(libs: LibraryNode[] | null | undefined, id: number | null | undefined): LibraryNode | undefined {
  for (const l of libs ?? []) {
    if (l.id === id) return l;
    const sub = findLibrary(l.children, id);
    if (sub) return sub;
  }
  return undefined;
}
