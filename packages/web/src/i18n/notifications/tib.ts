import type { Widen } from '../widen';
import type { notificationsEn } from './en';

/** བོད་ཡིག: the notification bell and its toasts. */
export const notificationsTib: Widen<typeof notificationsEn> = {
  notifications: {
    title: 'བརྡ་ཐོ།',
    bellUnread: 'བརྡ་ཐོ། མ་ཀློག་པ་ {{count}}',
    markAllRead: 'ཚང་མ་ཀློག་ཟིན་དུ་རྟགས་རྒྱག',
    empty: 'བརྡ་ཐོ་མེད།',
    newestOnly: 'བརྡ་ཐོ་གསར་ཤོས་ ༥ ཁོ་ན་མངོན་གྱི་ཡོད།',
    examUploaded: 'བརྟག་དཔྱད་གསར་པ་ཡར་འཇུག་བྱས་ཟིན།',
    criticalValue: 'ཉེན་ཁའི་གྲངས་ཐང་སྙན་སེང་བྱས།',
    remoteReport: 'ཆེད་མཁས་པའི་སྙན་ཞུ་འབྱོར་སོང་།',
    noName: 'ནད་པའི་མིང་མེད།',
    maskedHint: 'ནད་པའི་མིང་སྦས་ཡོད། ལས་ཁུངས་འདིར་ཁྱེད་ལ་ནད་པའི་སྒེར་གསང་ཆ་འཕྲིན་ལྟ་བའི་དབང་ཚད་མེད།',
  },
};
