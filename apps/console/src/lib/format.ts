import dayjs from 'dayjs';
import 'dayjs/locale/ru';

/** Russian everywhere: dayjs (antd date pickers, relative times) uses the `ru` locale, weeks from Monday. */
dayjs.locale('ru');

export * from '@forpost/contract/format';
export { dayjs };
