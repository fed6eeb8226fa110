import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { slideGradeColor, type SlideJudgement } from '../../lib/slideQuality';

/** A slide's quality grade as a coloured tag; the reason and the judge in its tooltip. */
export function SlideGradeTag({ j }: { j?: SlideJudgement }) {
  const { t } = useTranslation();
  if (!j) return <Typography.Text type="secondary">{t('slideQuality.notJudged')}</Typography.Text>;
  const tip = [j.reason, `${t('slideQuality.judgedBy')}: ${j.judged_by_name}`].filter(Boolean).join(' · ');
  return (
    <Tooltip title={tip}>
      <Tag color={slideGradeColor[j.grade]} data-testid={`slide-grade-${j.slide_id}`} style={{ marginInlineEnd: 0 }}>
        {t(`slideQuality.grade.${j.grade}`)}
      </Tag>
    </Tooltip>
  );
}
