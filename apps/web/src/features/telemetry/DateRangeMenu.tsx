import { CalendarOutlined, DownOutlined } from '@ant-design/icons';
import { Button, DatePicker, Divider, Flex, Popover } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PRESETS,
  customRange,
  isAfterToday,
  isPresetKey,
  presetRange,
  type DateRange,
  type Granularity,
} from './dateRanges';
import { dayOf, installationZone, type CalendarDay } from './zone';

/** The calendar's cell as a day of the installation (the picker counts in the browser's zone). */
const pickedDay = (d: Dayjs): CalendarDay => ({ y: d.year(), m: d.month() + 1, d: d.date() });
/** A day of the installation as the picker's cell. */
const cellOf = (day: CalendarDay): Dayjs => dayjs(new Date(day.y, day.m - 1, day.d));

interface DateRangeMenuProps {
  granularity: Granularity;
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** The granularity's shortcuts plus a range calendar that stops at today. */
export function DateRangeMenu({ granularity, value, onChange }: DateRangeMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const tz = installationZone();
  const label = isPresetKey(value.key) ? t(`toolbar.presets.${value.key}`) : value.key;

  const pick = (range: DateRange) => {
    onChange(range);
    setOpen(false);
  };

  const content = (
    <Flex vertical gap={4} style={{ minWidth: 260 }}>
      {PRESETS[granularity].map((key) => (
        <Button
          key={key}
          type={value.key === key ? 'primary' : 'text'}
          style={{ justifyContent: 'flex-start' }}
          onClick={() => pick(presetRange(key, new Date(), tz))}
        >
          {t(`toolbar.presets.${key}`)}
        </Button>
      ))}
      <Divider style={{ margin: '8px 0' }} plain>
        {t('toolbar.custom')}
      </Divider>
      <DatePicker.RangePicker
        aria-label={t('toolbar.custom')}
        value={
          isPresetKey(value.key)
            ? null
            : [cellOf(dayOf(value.from * 1000, tz)), cellOf(dayOf(value.to * 1000, tz))]
        }
        disabledDate={(d) => isAfterToday(pickedDay(d), new Date(), tz)}
        format="D.M.YYYY"
        allowClear={false}
        getPopupContainer={(node) => node.parentElement ?? document.body}
        onChange={(dates) => {
          const [a, b] = dates ?? [];
          if (a && b) pick(customRange(pickedDay(a), pickedDay(b), tz));
        }}
      />
    </Flex>
  );

  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} content={content} placement="bottomLeft">
      <Button icon={<CalendarOutlined />} aria-label={t('toolbar.date_range')}>
        {label} <DownOutlined />
      </Button>
    </Popover>
  );
}
