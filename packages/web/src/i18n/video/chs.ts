import type { videoEn } from './en';

/** 简体中文：会诊视频室。 */
export const videoChs: typeof videoEn = {
  video: {
    title: '视频会诊',
    join: '加入视频',
    joining: '正在加入…',
    leave: '离开',
    mute: '静音',
    unmute: '取消静音',
    cameraOff: '关闭摄像头',
    cameraOn: '打开摄像头',
    share: '共享屏幕',
    stopShare: '停止共享',
    you: '{{name}}（我）',
    alone: '等待其他人加入…',
    connecting: '正在连接…',
    reconnecting: '连接已断开，正在重连…',
    micOff: '麦克风已关闭',
    camOff: '摄像头已关闭',
    sharing: '正在共享屏幕',
    shortcuts: '快捷键：Alt+M 麦克风，Alt+V 摄像头，Alt+S 共享屏幕，Alt+L 离开',
    inRoom: '{{count}} 人在会诊室',
    mediaRefused: '浏览器未允许使用摄像头和麦克风。请在地址栏的图标中为本站允许后重新加入；在此之前您只能观看和收听。',
    cameraRefused: '摄像头不可用（被拒绝或未连接）；其他人能听到您，但看不到您。',
    micRefused: '麦克风不可用（被拒绝或未连接）；其他人能看到您，但听不到您。',
    noMediaSupport: '此浏览器无法进行视频通话（需要 https:// 安全地址和 WebRTC）。',
    screenRefused: '屏幕共享已取消或被拒绝。',
    ended: '您已离开视频会诊室，或会诊室已关闭。',
  },
};
