import { DatePicker, type DatePickerProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../../lib/format';

/** A «valid until» day as the API takes it: the end of that day, or null for no limit. */
export const expiryIso = (day: Dayjs | null | undefined): string | null => (day ? day.endOf('day').toISOString() : null);

/**
 * The «valid until» day of a form (value/onChange from Form.Item): empty means «Бессрочно»; days
 * before today cannot be chosen unless `allowPast`.
 */
export function ExpiryPicker({ allowPast, ...props }: DatePickerProps & { allowPast?: boolean }) {
  return (
    <DatePicker
      format="DD.MM.YYYY"
      placeholder="Бессрочно"
      disabledDate={allowPast ? undefined : (d) => d.isBefore(dayjs().startOf('day'))}
      {...props}
    />
  );
}
