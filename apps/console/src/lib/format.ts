import dayjs from 'dayjs';
import 'dayjs/locale/ru';
import { formatNumber, pluralRu } from '@forpost/contract/format';

/** Russian everywhere: dayjs (antd date pickers, relative times) uses the `ru` locale, weeks from Monday. */
dayjs.locale('ru');

export * from '@forpost/contract/format';
export { dayjs };

/** «1 234 события»: a number of events with the word in its form. */
export const eventsCount = (n: number): string => `${formatNumber(n)} ${pluralRu(n, 'событие', 'события', 'событий')}`;
