import { z } from 'zod';

/** Russian messages for every zod check; a missing value reads 'Обязательное поле' as the spec says. */
z.config(z.locales.ru());
z.config({
  customError: (iss) => {
    if (iss.code === 'invalid_type' && (iss.input === undefined || iss.input === null)) return 'Обязательное поле';
    return undefined;
  },
});

export { z };
