import { Button, Card, Col, Form, Input, Row, Select, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { emptySpecimen } from './form';
import type { FieldKit } from './fields';
import { Section } from './fields';
import type { RegisterForm } from './useRegisterForm';

/** The specimens, each with its paraffin blocks (at least one of each unless saving a draft). */
export function SpecimensSection({ r, k }: { r: RegisterForm; k: FieldKit }) {
  const { t, show, fmt, req, enumOptions } = k;
  const { draftMode, defaultFixative } = r;
  return (
    <Section id="sec-specimens" title={t('case.section.specimens')}>
      <Form.List
        name="specimens"
        rules={[{ validator: async (_, list?: unknown[]) => (draftMode.current || (list?.length ?? 0) > 0 ? undefined : Promise.reject(new Error(t('case.rule.needSpecimen')))) }]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((f, i) => (
              <Card
                key={f.key}
                size="small"
                type="inner"
                title={t('case.specimen.title', { n: i + 1 })}
                style={{ marginBottom: 12 }}
                extra={
                  <Tooltip title={fields.length === 1 ? t('case.specimen.onlyOne') : undefined}>
                    <Button type="text" danger size="small" icon={<DeleteOutlined />} disabled={fields.length === 1} onClick={() => remove(f.name)} data-testid={`specimen-remove-${i}`}>
                      {t('common.delete')}
                    </Button>
                  </Tooltip>
                }
              >
                <Row gutter={16}>
                  <Col xs={24} md={12} xl={8}>
                    <Form.Item name={[f.name, 'name']} label={t('case.specimen.name')} required rules={[req(t('case.specimen.name'))]}>
                      <Input maxLength={100} data-testid={`specimen-name-${i}`} />
                    </Form.Item>
                  </Col>
                  {show(false) && (
                    <>
                      <Col xs={24} md={12} xl={4}>
                        <Form.Item name={[f.name, 'specimen_type']} label={t('case.specimen.type')}>
                          <Select options={enumOptions('case.specimenType', ['ex_specimen', 'ex_paraffin_block', 'ex_slide'])} />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={12} xl={4}>
                        <Form.Item name={[f.name, 'part']} label={t('case.specimen.part')}>
                          <Input maxLength={100} />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={6} xl={3}>
                        <Form.Item name={[f.name, 'count']} label={t('case.specimen.count')} rules={[fmt((v) => /^\d{1,4}$/.test(v), t('case.rule.count'))]} normalize={(v: string) => (v === '' || v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : v)}>
                          <Input inputMode="numeric" maxLength={4} />
                        </Form.Item>
                      </Col>
                      <Col xs={12} md={6} xl={5}>
                        <Form.Item name={[f.name, 'fixative']} label={t('case.specimen.fixative')}>
                          <Input maxLength={50} placeholder={defaultFixative ? t('case.specimen.fixativeDefault', { value: defaultFixative }) : t('case.specimen.fixativeExample')} />
                        </Form.Item>
                      </Col>
                    </>
                  )}
                </Row>
                <Form.List
                  name={[f.name, 'blocks']}
                  rules={[{ validator: async (_, list?: unknown[]) => (draftMode.current || (list?.length ?? 0) > 0 ? undefined : Promise.reject(new Error(t('case.rule.needBlock')))) }]}
                >
                  {(blocks, blockOps, { errors: blockErrors }) => (
                    <div style={{ background: '#f7f9fc', borderRadius: 6, padding: '10px 12px 2px', marginBottom: 12 }}>
                      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
                        {t('case.block.title')}
                      </Typography.Text>
                      {blocks.map((b, j) => (
                        <Row gutter={8} key={b.key} align="top">
                          <Col xs={24} md={6} xl={4}>
                            <Form.Item name={[b.name, 'name']} rules={[req(t('case.block.name'))]} style={{ marginBottom: 8 }}>
                              <Input placeholder={t('case.block.name')} aria-label={t('case.block.name')} maxLength={50} data-testid={`block-name-${i}-${j}`} />
                            </Form.Item>
                          </Col>
                          {show(false) && (
                            <>
                              <Col xs={24} md={5} xl={4}>
                                <Form.Item name={[b.name, 'slide_number']} style={{ marginBottom: 8 }}>
                                  <Input placeholder={t('case.block.slideNumber')} aria-label={t('case.block.slideNumber')} maxLength={50} />
                                </Form.Item>
                              </Col>
                              <Col xs={24} md={5} xl={5}>
                                <Form.Item name={[b.name, 'draw_part']} style={{ marginBottom: 8 }}>
                                  <Input placeholder={t('case.block.drawPart')} aria-label={t('case.block.drawPart')} maxLength={100} />
                                </Form.Item>
                              </Col>
                              <Col xs={24} md={6} xl={9}>
                                <Form.Item name={[b.name, 'gross_description']} style={{ marginBottom: 8 }}>
                                  <Input placeholder={t('case.block.gross')} aria-label={t('case.block.gross')} maxLength={2000} />
                                </Form.Item>
                              </Col>
                            </>
                          )}
                          <Col flex="none">
                            <Tooltip title={blocks.length === 1 ? t('case.block.onlyOne') : t('common.delete')}>
                              <Button type="text" danger icon={<DeleteOutlined />} disabled={blocks.length === 1} onClick={() => blockOps.remove(b.name)} aria-label={t('common.delete')} />
                            </Tooltip>
                          </Col>
                        </Row>
                      ))}
                      <Form.ErrorList errors={blockErrors} />
                      <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => blockOps.add({ name: '' })} style={{ marginBottom: 10 }} data-testid={`block-add-${i}`}>
                        {t('case.block.add')}
                      </Button>
                    </div>
                  )}
                </Form.List>
              </Card>
            ))}
            <Form.ErrorList errors={errors} />
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add(emptySpecimen())} style={{ marginBottom: 16 }} data-testid="specimen-add">
              {t('case.specimen.add')}
            </Button>
          </>
        )}
      </Form.List>
    </Section>
  );
}
