import { z } from 'zod';
import { isEchoSafe } from './validation';

/** Russian messages for every zod check; a missing value reads 'Обязательное поле' as the spec says. */
z.config(z.locales.ru());
z.config({
  customError: (iss) => {
    if (iss.code === 'invalid_type' && (iss.input === undefined || iss.input === null)) return 'Обязательное поле';
    // zod's own text quotes the keys back; a key can be anything the client sent (5 000 characters, NUL):
    // named only when every one is short and printable.
    if (iss.code === 'unrecognized_keys' && !iss.keys.every(isEchoSafe))
      return iss.keys.length === 1 ? 'Неизвестное поле' : 'Неизвестные поля';
    return undefined;
  },
});

export { z };
