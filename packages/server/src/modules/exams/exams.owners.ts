// The exams module's ownership look-ups: which organization owns an exam. Route auth names them
// (`auth: { action, owner: ownerFrom('examId', ownerOfExam, db) }`); their SQL is in the stores.
// Other modules reach ownerOfExam through the face (index.ts).
export { ownerOfAnyExam } from './exams.lifecycle.store.js';
export { ownerOfExam } from './exams.store.js';
