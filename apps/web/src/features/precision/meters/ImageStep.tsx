import { InboxOutlined } from '@ant-design/icons';
import { METER_IMAGE_EXTENSIONS } from '@meterportal/protocol';
import { Typography, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../api/notify';
import { imageProblem } from './wizardRules';

interface ImageStepProps {
  files: UploadFile[];
  onChange: (files: UploadFile[]) => void;
}

/** The fourth step: images of the saved meter, checked as they are picked. */
export function ImageStep({ files, onChange }: ImageStepProps) {
  const { t } = useTranslation();
  return (
    <>
      <Upload.Dragger
        multiple
        listType="picture"
        accept={METER_IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',')}
        fileList={files}
        beforeUpload={(file) => {
          const problem = imageProblem(file);
          if (problem === 'format') toast('error', t('meters.file_not_supported'));
          if (problem === 'size') toast('error', t('meters.file_too_large'));
          // Nothing uploads on its own: the files go up with Finish.
          return problem ? Upload.LIST_IGNORE : false;
        }}
        onChange={({ fileList }) => onChange(fileList)}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('meters.choose_images')}</p>
        <Typography.Text type="secondary">{t('meters.images_hint')}</Typography.Text>
      </Upload.Dragger>
    </>
  );
}
