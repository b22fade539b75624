/**
 * Demo tenant seeded on an empty database (YYP_DEMO, default on for the embedded store).
 * Listed in README; later issues give these accounts their groups, organizations and data.
 */
export const DEMO_PASSWORD = 'Yyp@2026';
export const demoAccounts = [
  { username: 'admin', name: '平台管理员', role: 'platform admin (domain configuration)', platformAdmin: true },
  { username: 'doctor', name: '李医生', role: 'doctor: writes reports', platformAdmin: false },
  { username: 'senior', name: '王主任', role: 'senior doctor: approves reports', platformAdmin: false },
  { username: 'tech', name: '张技师', role: 'technician: uploads and performs exams', platformAdmin: false },
  { username: 'registrar', name: '赵登记', role: 'registrar: registers and schedules patients', platformAdmin: false },
  { username: 'notetaker', name: '钱记录', role: 'note-taker: types dictated reports', platformAdmin: false },
  { username: 'expert', name: '孙专家', role: 'consultation expert', platformAdmin: false },
  { username: 'groupadmin', name: '周管理', role: 'group admin (access level 1)', platformAdmin: false },
  { username: 'auditor', name: '吴审计', role: 'auditor (access level 9)', platformAdmin: false },
  { username: 'secadmin', name: '郑安全', role: 'security admin (access level 10)', platformAdmin: false },
] as const;
