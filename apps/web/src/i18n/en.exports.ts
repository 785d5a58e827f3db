/** English texts of the full-range exports of the charts. */
export const enExports = {
  exports: {
    full_range: 'Full range',
    csv: 'Whole range as CSV',
    xlsx: 'Whole range as XLSX',
    hint: 'Every value of the selected range from the server, with local and UTC times and units',
    too_large: 'This export is too large: choose a shorter range or a longer period',
    started: 'Download started',
  },
} as const;
