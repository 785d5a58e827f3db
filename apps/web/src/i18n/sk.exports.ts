import type { enExports } from './en.exports';
import type { Translation } from './en';

/** Slovak texts of the full-range exports of the charts. */
export const skExports: Pick<Translation, keyof typeof enExports> = {
  exports: {
    full_range: 'Celý rozsah',
    csv: 'Celý rozsah ako CSV',
    xlsx: 'Celý rozsah ako XLSX',
    hint: 'Všetky hodnoty zvoleného rozsahu zo servera, s miestnym časom, časom UTC a jednotkami',
    too_large: 'Tento export je príliš veľký: zvoľte kratší rozsah alebo dlhšie obdobie',
    started: 'Sťahovanie sa začalo',
  },
};
