import { CalendarOutlined, DownOutlined } from '@ant-design/icons';
import { Button, DatePicker, Divider, Flex, Popover } from 'antd';
import dayjs from 'dayjs';
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

interface DateRangeMenuProps {
  granularity: Granularity;
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** The granularity's shortcuts plus a range calendar that stops at today. */
export function DateRangeMenu({ granularity, value, onChange }: DateRangeMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
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
          onClick={() => pick(presetRange(key, new Date()))}
        >
          {t(`toolbar.presets.${key}`)}
        </Button>
      ))}
      <Divider style={{ margin: '8px 0' }} plain>
        {t('toolbar.custom')}
      </Divider>
      <DatePicker.RangePicker
        aria-label={t('toolbar.custom')}
        value={isPresetKey(value.key) ? null : [dayjs(value.from * 1000), dayjs(value.to * 1000)]}
        disabledDate={(d) => isAfterToday(d.toDate(), new Date())}
        format="D.M.YYYY"
        allowClear={false}
        getPopupContainer={(node) => node.parentElement ?? document.body}
        onChange={(dates) => {
          const [a, b] = dates ?? [];
          if (a && b) pick(customRange(a.toDate(), b.toDate()));
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
