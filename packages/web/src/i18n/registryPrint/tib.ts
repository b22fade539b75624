import type { Widen } from '../widen';
import type { registryPrintEn } from './en';

/** བོད་ཡིག：ཐོ་འགོད་སྒར་གྱི་མིང་བྱང་དང་རེ་ཞུ་འགེངས་ཤོག་པར་སྐྲུན། (/registry) */
export const registryPrintTib: Widen<typeof registryPrintEn> = {
  registryPrint: {
    labels: 'མིང་བྱང་པར་སྐྲུན། ({{count}})',
    referralForms: 'རེ་ཞུ་འགེངས་ཤོག་པར་སྐྲུན། ({{count}})',
    label: 'མིང་བྱང་།',
    referralForm: 'རེ་ཞུ་འགེངས་ཤོག',
    labelPrinter: 'མིང་བྱང་པར་འཕྲུལ། 80×50 mm',
    labelSheet: 'A4 ཤོག་བུ། ཤོག་ངོས་རེར་མིང་བྱང་ 10',
    download: 'PDF ཕབ་ལེན།',
    labelMore: 'མིང་བྱང་པར་སྐྲུན་གཞན།',
    formMore: 'རེ་ཞུ་འགེངས་ཤོག་པར་སྐྲུན་གཞན།',
    opened: 'PDF ཤོག་ངོས་གསར་པར་ཁ་ཕྱེ་ཟིན། དེ་ནས་པར་སྐྲུན་གནང་རོགས།',
    saved: 'PDF ཉར་ཚགས་བྱས་ཟིན།',
    notSameDay: 'རེ་ཞུ་འགེངས་ཤོག་ནི་ཉིན་གཅིག་གི་ཞིབ་བཤེར་ཁོ་ན་མཉམ་སྡེབ་བྱེད་ཆོག ཉིན་གཅིག་གི་ཞིབ་བཤེར་འདེམས་རོགས།',
    differentOrganizations: 'ལས་ཁུངས་གཅིག་གི་ཞིབ་བཤེར་འདེམས་རོགས།',
    cancelled: 'ཕྱིར་འཐེན་ཟིན་པའི་ཞིབ་བཤེར་ལ་མིང་བྱང་དང་རེ་ཞུ་འགེངས་ཤོག་མེད།',
    tooMany: 'ཐེངས་གཅིག་ལ་ཞིབ་བཤེར་མང་ཤོས་ {{max}} པར་སྐྲུན་ཆོག',
  },
};
