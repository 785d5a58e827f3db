import type { MeterImage } from '@meterportal/protocol';
import { Card, Empty, Flex, Image } from 'antd';
import { useTranslation } from 'react-i18next';
import { meterImageUrl } from './api';

interface MeterImagesProps {
  deviceToken: string;
  images: readonly MeterImage[];
  loading: boolean;
}

/** The meter's stored photos; a click opens the preview. */
export function MeterImages({ deviceToken, images, loading }: MeterImagesProps) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('meters.images')} loading={loading}>
      {images.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('meters.no_images')} />
      ) : (
        <Image.PreviewGroup>
          <Flex wrap gap={8}>
            {images.map((img) => (
              <Image
                key={img.ID_image}
                width={120}
                height={120}
                style={{ objectFit: 'cover' }}
                alt={img.name}
                src={meterImageUrl(deviceToken, img.ID_image)}
              />
            ))}
          </Flex>
        </Image.PreviewGroup>
      )}
    </Card>
  );
}
