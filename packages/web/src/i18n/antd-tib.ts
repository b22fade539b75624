import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';

const OK = 'གཏན་འཁེལ།';
const CANCEL = 'མཚམས་འཇོག';
const NO_DATA = 'གཞི་གྲངས་མེད།';

/**
 * Ant Design ships no Tibetan locale. This one is en_US with the texts a Tibetan user sees in
 * the built-in components (date pickers, pagination, tables, dialogs, empty states) in Tibetan;
 * rarer ones (tour, transfer, colour picker) stay English. Dates themselves come from dayjs 'bo'.
 */
export const antdTib: Locale = {
  ...enUS,
  locale: 'bo',
  global: { ...enUS.global, placeholder: 'འདེམས་རོགས།', close: 'སྒོ་རྒྱག' },
  Pagination: {
    ...enUS.Pagination,
    items_per_page: '/ ཤོག་ངོས།',
    jump_to: 'ཤོག་ངོས་ལ་མཆོང་།',
    jump_to_confirm: OK,
    page: 'ཤོག་ངོས།',
    prev_page: 'ཤོག་ངོས་སྔ་མ།',
    next_page: 'ཤོག་ངོས་རྗེས་མ།',
    prev_5: 'ཤོག་ངོས་སྔ་མ་ 5',
    next_5: 'ཤོག་ངོས་རྗེས་མ་ 5',
    prev_3: 'ཤོག་ངོས་སྔ་མ་ 3',
    next_3: 'ཤོག་ངོས་རྗེས་མ་ 3',
    page_size: 'ཤོག་ངོས་རེར་གྲངས།',
  },
  DatePicker: enUS.DatePicker && {
    ...enUS.DatePicker,
    lang: {
      ...enUS.DatePicker.lang,
      locale: 'bo',
      placeholder: 'ཚེས་གྲངས་འདེམས།',
      yearPlaceholder: 'ལོ་འདེམས།',
      monthPlaceholder: 'ཟླ་བ་འདེམས།',
      weekPlaceholder: 'གཟའ་འཁོར་འདེམས།',
      rangePlaceholder: ['འགོ་འཛུགས་ཚེས་གྲངས།', 'མཇུག་སྒྲིལ་ཚེས་གྲངས།'],
      rangeYearPlaceholder: ['འགོ་འཛུགས་ལོ།', 'མཇུག་སྒྲིལ་ལོ།'],
      rangeMonthPlaceholder: ['འགོ་འཛུགས་ཟླ་བ།', 'མཇུག་སྒྲིལ་ཟླ་བ།'],
      rangeWeekPlaceholder: ['འགོ་འཛུགས་གཟའ་འཁོར།', 'མཇུག་སྒྲིལ་གཟའ་འཁོར།'],
      today: 'དེ་རིང་།',
      now: 'ད་ལྟ།',
      backToToday: 'དེ་རིང་ལ་ཕྱིར་ལོག',
      ok: OK,
      clear: 'གཙང་སེལ།',
      week: 'གཟའ་འཁོར།',
      month: 'ཟླ་བ།',
      year: 'ལོ།',
      previousMonth: 'ཟླ་བ་སྔ་མ།',
      nextMonth: 'ཟླ་བ་རྗེས་མ།',
      previousYear: 'ལོ་སྔ་མ།',
      nextYear: 'ལོ་རྗེས་མ།',
    },
  },
  Table: {
    ...enUS.Table,
    filterTitle: 'འདེམས་སྒྲུག',
    filterConfirm: OK,
    filterReset: 'བསྐྱར་སྒྲིག',
    filterEmptyText: 'འདེམས་སྒྲུག་མེད།',
    filterCheckAll: 'ཚང་མ་འདེམས།',
    filterSearchPlaceholder: 'འཚོལ།',
    emptyText: NO_DATA,
    selectAll: 'ཤོག་ངོས་འདི་ཚང་མ་འདེམས།',
    selectInvert: 'ཤོག་ངོས་འདིའི་འདེམས་པ་ལྡོག',
    selectNone: 'འདེམས་པ་ཚང་མ་གཙང་སེལ།',
    selectionAll: 'གཞི་གྲངས་ཚང་མ་འདེམས།',
    sortTitle: 'གོ་རིམ།',
    expand: 'ཕྲེང་བུ་བཀྲམ།',
    collapse: 'ཕྲེང་བུ་བསྡུ།',
    triggerDesc: 'མར་རིམ་དུ་སྒྲིག',
    triggerAsc: 'ཡར་རིམ་དུ་སྒྲིག',
    cancelSort: 'གོ་རིམ་མཚམས་འཇོག',
  },
  Modal: { ...enUS.Modal, okText: OK, cancelText: CANCEL, justOkText: OK },
  Popconfirm: { ...enUS.Popconfirm, okText: OK, cancelText: CANCEL },
  Empty: { ...enUS.Empty, description: NO_DATA },
};
