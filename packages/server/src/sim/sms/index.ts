export { startSmsSimulator, type ReceivedSms, type SmsSimulator, type SmsSimulatorOptions } from './simulator.js';
