import type { Language } from './limits.js';
import type { StatColumn, StatDimension, StatKind } from './statistics.js';

/**
 * The words of the statistics tables in the three interface languages, one table for the web's
 * dashboards and the server's Excel exports, so both name a column the same way.
 */
type Words = Record<Language, string>;
const w = (chs: string, en: string, tib: string): Words => ({ chs, en, tib });

export const STAT_COLUMN_LABELS: Record<StatColumn, Words> = {
  exams: w('检查数', 'Exams', 'ཞིབ་བཤེར་གྲངས།'),
  bodyParts: w('部位数', 'Body parts', 'ལུས་ཚིགས་གྲངས།'),
  written: w('书写报告', 'Written', 'བྲིས་པའི་སྙན་ཞུ།'),
  approved: w('审核报告', 'Approved', 'ཞིབ་དཔྱད་བྱས་པའི་སྙན་ཞུ།'),
  writtenBodyParts: w('书写部位', 'Body parts written', 'བྲིས་པའི་ལུས་ཚིགས།'),
  approvedBodyParts: w('审核部位', 'Body parts approved', 'ཞིབ་དཔྱད་བྱས་པའི་ལུས་ཚིགས།'),
  reports: w('报告数', 'Reports', 'སྙན་ཞུ་གྲངས།'),
  positive: w('阳性', 'Positive', 'ཕོ་རྟགས།'),
  negative: w('阴性', 'Negative', 'མོ་རྟགས།'),
  positiveRate: w('阳性率', 'Positive rate', 'ཕོ་རྟགས་ཚད།'),
  registrations: w('登记数', 'Registrations', 'ཐོ་འགོད་གྲངས།'),
  arrivals: w('到检数', 'Arrivals', 'འབྱོར་གྲངས།'),
  sent: w('发出', 'Sent', 'བསྐུར་བ།'),
  received: w('收到', 'Received', 'འབྱོར་བ།'),
  reported: w('已出报告', 'Reported', 'སྙན་ཞུ་བྱས་ཟིན།'),
  cancelled: w('已取消', 'Cancelled', 'མེད་པར་བཟོས།'),
  medianMinutes: w('中位用时（分钟）', 'Median (min)', 'བར་གྲངས་དུས་ཚོད། (སྐར་མ)'),
  p90Minutes: w('90% 用时（分钟）', '90th percentile (min)', '༩༠% དུས་ཚོད། (སྐར་མ)'),
  orders: w('订单数', 'Orders', 'བཀའ་འཆར་གྲངས།'),
  paidFen: w('收入', 'Paid', 'སྤྲད་པ།'),
  refundedFen: w('退款', 'Refunded', 'ཕྱིར་སློག'),
  creditedFen: w('超时补偿', 'SLA credits', 'དུས་ཡོལ་གུན་གསབ།'),
  netFen: w('净收入', 'Net', 'ཁེ་འབབ་དངོས།'),
  requested: w('申请', 'Requested', 'རེ་ཞུ།'),
  completed: w('已完成', 'Completed', 'ལེགས་གྲུབ།'),
  ratings: w('评价数', 'Ratings', 'བཅུད་བརྗོད་གྲངས།'),
  ratingAverage: w('平均评分', 'Average rating', 'བཅུད་བརྗོད་ཆ་སྙོམས།'),
  graded: w('质控数', 'Graded', 'སྤུས་ཚད་ཞིབ་བཤེར།'),
  levelA: w('甲级', 'Grade A', 'རིམ་པ་དང་པོ།'),
  levelB: w('乙级', 'Grade B', 'རིམ་པ་གཉིས་པ།'),
  levelC: w('丙级', 'Grade C', 'རིམ་པ་གསུམ་པ།'),
  levelD: w('丁级', 'Grade D', 'རིམ་པ་བཞི་པ།'),
  unsatisfactory: w('不满意项', 'Unsatisfactory items', 'ཡིད་མི་ཚིམ་པའི་དོན་ཚན།'),
  overTarget: w('超出目标', 'Past the target', 'དམིགས་ཚད་ལས་བརྒལ།'),
};

export const STAT_DIMENSION_LABELS: Record<StatDimension, Words> = {
  doctor: w('医生', 'Doctor', 'སྨན་པ།'),
  modality: w('检查类型', 'Modality', 'ཞིབ་བཤེར་རིགས།'),
  bodyPart: w('检查部位', 'Body part', 'ལུས་ཚིགས།'),
  bucket: w('机构', 'Organization', 'ལས་ཁུངས།'),
  device: w('设备', 'Device', 'ཡོ་བྱད།'),
  room: w('检查室', 'Room', 'ཞིབ་བཤེར་ཁང་།'),
  registrar: w('登记员', 'Registrar', 'ཐོ་འགོད་པ།'),
  arriver: w('到检登记员', 'Arrival clerk', 'འབྱོར་ཐོ་འགོད་པ།'),
  noteTaker: w('记录员', 'Note-taker', 'ཟིན་འགོད་པ།'),
  counterpart: w('对方机构', 'Other organization', 'ཕ་རོལ་ལས་ཁུངས།'),
  product: w('服务', 'Service', 'ཞབས་ཞུ།'),
  level: w('质控等级', 'Grade', 'སྤུས་ཚད་རིམ་པ།'),
  item: w('不满意项', 'Item', 'དོན་ཚན།'),
  hour: w('时段', 'Hour of day', 'ཆུ་ཚོད།'),
};

export const STAT_KIND_LABELS: Record<StatKind, Words> = {
  report: w('医生工作量', 'Doctor workload', 'སྨན་པའི་ལས་ཀ།'),
  modality: w('设备工作量', 'Device workload', 'ཡོ་བྱད་ཀྱི་ལས་ཀ།'),
  study: w('机构工作量', 'Organization workload', 'ལས་ཁུངས་ཀྱི་ལས་ཀ།'),
  arriver: w('到检统计', 'Arrivals', 'འབྱོར་བའི་བསྡོམས་རྩིས།'),
  'remote-report': w('远程报告统计', 'Remote reports', 'རྒྱང་རིང་སྙན་ཞུའི་བསྡོམས་རྩིས།'),
  'note-taker': w('记录员工作量', 'Note-taker workload', 'ཟིན་འགོད་པའི་ལས་ཀ།'),
  registrar: w('登记员工作量', 'Registrar workload', 'ཐོ་འགོད་པའི་ལས་ཀ།'),
  'report-positive': w('阳性率', 'Positive rate', 'ཕོ་རྟགས་ཚད།'),
  'group-payment': w('收入统计', 'Income', 'ཡོང་འབབ།'),
  consul: w('会诊统计', 'Consultations', 'གྲོས་བསྡུར་གྱི་བསྡོམས་རྩིས།'),
  quality: w('质控统计', 'Quality', 'སྤུས་ཚད་བསྡོམས་རྩིས།'),
  turnaround: w('周转时间', 'Turnaround', 'འཁོར་སྐྱོད་དུས་ཚོད།'),
};

/** The label of a row's period column and the totals row. */
export const STAT_WORDS = {
  period: w('时间', 'Period', 'དུས་ཚོད།'),
  total: w('合计', 'Total', 'བསྡོམས།'),
  none: w('（无）', '(none)', '(མེད།)'),
};
