import { myNotificationSettingsCalls, type MyNotificationSettings } from '@yyp/contracts';
import { callApi } from './call';

/** The signed-in user's own notification settings (which kinds toast, whether a toast chimes). */

export const fetchMyNotificationSettings = (signal?: AbortSignal): Promise<MyNotificationSettings> =>
  callApi(myNotificationSettingsCalls.get, {}, { signal });

export const saveMyNotificationSettings = (settings: MyNotificationSettings): Promise<MyNotificationSettings> =>
  callApi(myNotificationSettingsCalls.put, { body: settings });
