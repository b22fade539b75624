import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DictionaryItem, DictionaryKind } from '@yyp/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, FormModalActions } from '../../../ui/FormModal';
import type { UpsertDictionaryItemRequest } from '../../../api/contractTypes';
import { hasCode } from '../../../api/errors';
import { saveDictionaryItem } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { ItemFields, toFormValues, toRequestData, type ItemFormValues } from './dictionaryFields';

interface DictionaryItemModalProps {
  bucketId: string;
  kind: DictionaryKind;
  item: DictionaryItem | null;
  open: boolean;
  departments: DictionaryItem[];
  onClose: () => void;
}

/** Add or edit one dictionary item; a duplicate name is marked on the name field. */
export function DictionaryItemModal(props: DictionaryItemModalProps) {
  const { t } = useTranslation();
  const { kind, item, open, onClose } = props;
  const kindLabel = t(`dictionaryKinds.${kind}`);
  return (
    <FormModal
      open={open}
      title={item ? t('dictionary.editTitle', { kind: kindLabel }) : t('dictionary.addTitle', { kind: kindLabel })}
      onClose={onClose}
    >
      <DictionaryItemForm {...props} />
    </FormModal>
  );
}

function DictionaryItemForm({ bucketId, kind, item, departments, onClose }: DictionaryItemModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ItemFormValues>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const type = Form.useWatch(['data', 'type'], form);
  const save = useMutation({
    mutationFn: (body: UpsertDictionaryItemRequest) => saveDictionaryItem(bucketId, kind, item?.id ?? null, body),
  });

  async function handleFinish(values: ItemFormValues) {
    try {
      const saved = await save.mutateAsync({
        name: values.name.trim(),
        data: toRequestData(kind, values),
        sort: values.sort,
      });
      notify.success(t('dictionary.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.dictionary(bucketId, kind) });
      onClose();
    } catch (error) {
      if (hasCode(error, 'Conflict')) {
        form.setFields([{ name: 'name', errors: [t('dictionary.duplicate')] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Form<ItemFormValues>
      name="dictionaryItem"
      form={form}
      layout="vertical"
      initialValues={toFormValues(kind, item)}
      onFinish={handleFinish}
    >
      <ItemFields kind={kind} t={t} departments={departments} type={type} />
      <FormModalActions onCancel={onClose} pending={save.isPending} />
    </Form>
  );
}
