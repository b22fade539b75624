import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The animal of a pet domain's registration (spec 000 §3 Animal variant): species, breed, the
 * responsible person and the disease history, with the contract's lengths.
 */
export function AnimalFields() {
  const { t } = useTranslation();
  return (
    <>
      <div className="yyp-registry-form__grid">
        <Form.Item
          label={t('registry.form.species')}
          name={['patient', 'animal', 'species']}
          rules={[{ required: true, whitespace: true, message: t('registry.form.speciesRequired') }]}
        >
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item label={t('registry.form.breed')} name={['patient', 'animal', 'breed']}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item label={t('registry.form.owner')} name={['patient', 'animal', 'owner']}>
          <Input maxLength={64} />
        </Form.Item>
      </div>
      <Form.Item label={t('registry.form.diseaseHistory')} name={['patient', 'animal', 'diseaseHistory']}>
        <Input.TextArea maxLength={1024} autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
    </>
  );
}
