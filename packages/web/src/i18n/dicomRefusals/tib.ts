import type { Widen } from '../widen';
import type { dicomRefusalsEn } from './en';

/** བོད་ཡིག DICOM མཐུད་ལམ་ཁས་མ་བླངས་པའི་ཟིན་ཐོ། */
export const dicomRefusalsTib: Widen<typeof dicomRefusalsEn> = {
  dicomRefusals: {
    title: 'ཁས་མ་བླངས་པའི་ DICOM མཐུད་ལམ།',
    subtitleAll:
      'DICOM ཞབས་ཞུས་ཁས་མ་བླངས་པའི་མཐུད་ལམ་ཡོངས། ཐོ་འགོད་མ་བྱས་པའི་འབོད་མཁན་ AE མིང་། ནོར་བའི་འབོད་ཡུལ་ AE མིང་། ཐོ་འགོད་བྱས་པའི་ཡོ་བྱད་ཁ་བྱང་གཞན་ནས་མཐུད་པ།',
    subtitleGroup: '{{group}} ཡི་ལས་ཁུངས་ཀྱིས་ཐོ་འགོད་བྱས་པའི་ AE མིང་དང་འབྲེལ་བའི་ཁས་མ་བླངས་པའི་ཟིན་ཐོ།',
    scope: 'ཁྱབ་ཁོངས།',
    scopeAll: 'ཡོངས་རྫོགས། (སྟེགས་བུ།)',
    at: 'དུས་ཚོད།',
    callingAe: 'འབོད་མཁན་ AE',
    calledAe: 'འབོད་ཡུལ་ AE',
    peer: 'ཕ་རོལ་གྱི་ཁ་བྱང་།',
    reason: 'རྒྱུ་མཚན།',
    reasonCalledAe: 'འབོད་ཡུལ་ AE མིང་ཞབས་ཞུ་འཕྲུལ་ཆས་འདིའི་མིན།',
    reasonCallingAe: 'འབོད་མཁན་ AE མིང་ཐོ་འགོད་བྱས་མེད།',
    reasonCallingHost: 'ཐོ་འགོད་བྱས་པའི་ AE མིང་ཁ་བྱང་གཞན་ནས་མཐུད་པ།',
    organization: 'ལས་ཁུངས།',
    outcome: 'མཇུག་འབྲས།',
    denied: 'ཁས་མ་བླངས།',
    aeTitle: 'AE མིང་།',
    aeTitlePlaceholder: 'འབོད་མཁན་ནམ་འབོད་ཡུལ་ AE མིང་གི་ཆ་ཤས།',
    range: 'དུས་ཚོད།',
    search: 'འཚོལ་ཞིབ།',
    reset: 'བསྐྱར་སྒྲིག',
    total: 'ཁྱོན་ {{count}}',
    forbiddenTitle: 'ཁས་མ་བླངས་པའི་ DICOM མཐུད་ལམ་ལྟ་བའི་དབང་ཚད་མེད།',
    forbiddenDescription: 'སྟེགས་བུའི་དོ་དམ་པ་དང་ཚོགས་པའི་རྩིས་ཞིབ་པས་ཁོ་ན་ཁས་མ་བླངས་པའི་ DICOM མཐུད་ལམ་ལྟ་ཐུབ།',
    open: 'ཁས་མ་བླངས་པའི་ DICOM མཐུད་ལམ།',
    backToAuditLog: 'བཀོལ་སྤྱོད་ཟིན་ཐོ།',
  },
};
