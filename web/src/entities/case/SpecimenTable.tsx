import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Specimen } from './api';

/**
 * The case's specimens with their blocks unfolded beneath. compact (the expert's
 * workspace, a narrower column) leaves out the specimen type and the block count.
 */
export function SpecimenTable({ specimens, compact = false }: { specimens: Specimen[] | null | undefined; compact?: boolean }) {
  const { t } = useTranslation();
  const w = compact ? { blockName: 100, slideNumber: 90, drawPart: 140, serial: 60, part: 120, fixative: 130 } : { blockName: 140, slideNumber: 120, drawPart: 160, serial: 70, part: 140, fixative: 120 };
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={specimens ?? []}
      locale={{ emptyText: t('case.specimen.none') }}
      expandable={{
        defaultExpandAllRows: true,
        rowExpandable: (s) => (s.blocks ?? []).length > 0,
        expandedRowRender: (s) => (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={s.blocks ?? []}
            columns={[
              { key: 'name', dataIndex: 'name', title: t('case.block.name'), width: w.blockName },
              { key: 'slide_number', dataIndex: 'slide_number', title: t('case.block.slideNumber'), width: w.slideNumber },
              { key: 'draw_part', dataIndex: 'draw_part', title: t('case.block.drawPart'), width: w.drawPart },
              { key: 'gross', dataIndex: 'gross_description', title: t('case.block.gross') },
            ]}
          />
        ),
      }}
      columns={[
        { key: 'serial', dataIndex: 'serial_number', title: t('case.specimen.serial'), width: w.serial },
        { key: 'name', dataIndex: 'name', title: t('case.specimen.name') },
        ...(compact ? [] : [{ key: 'type', dataIndex: 'specimen_type', title: t('case.specimen.type'), width: 120, render: (x: string) => (x ? t(`case.specimenType.${x}`) : '—') }]),
        { key: 'part', dataIndex: 'part', title: t('case.specimen.part'), width: w.part },
        { key: 'count', dataIndex: 'count', title: t('case.specimen.count'), width: 70 },
        { key: 'fixative', dataIndex: 'fixative', title: t('case.specimen.fixative'), width: w.fixative },
        ...(compact ? [] : [{ key: 'blocks', title: t('case.specimen.blockCount'), width: 80, render: (_: unknown, s: Specimen) => s.blocks?.length ?? 0 }]),
      ]}
    />
  );
}
