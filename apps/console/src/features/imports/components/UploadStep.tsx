/* Step 1: the company and the file (drag and drop, progress bar while it uploads). */
import { InboxOutlined } from '@ant-design/icons';
import { IMPORT_DELIMITERS_TEXT, IMPORT_ENCODINGS_TEXT, type ImportUploadResponse } from '@forpost/contract/imports';
import { Alert, Card, Flex, Form, Progress, Select, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useUploadImport } from '../api/mutations';
import type { ImportTarget } from '../api/queries';

const ACCEPT = '.csv,.xlsx,.txt,.tsv';

export interface UploadStepProps {
  target: ImportTarget;
  /** Companies to import into (absent for the leaks catalogue). */
  companies?: { value: number; label: string }[];
  companyId: number | undefined;
  onCompany: (id: number | undefined) => void;
  onUploaded: (r: ImportUploadResponse) => void;
}

export function UploadStep({ target, companies, companyId, onCompany, onUploaded }: UploadStepProps) {
  const upload = useUploadImport(target);
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string>();
  const [error, setError] = useState<string>();

  const start = (file: File) => {
    setError(undefined);
    setFileName(file.name);
    setProgress(0);
    upload.mutate(
      { file, companyId, onProgress: setProgress },
      {
        onSuccess: (r) => {
          setProgress(null);
          onUploaded(r);
        },
        onError: (e) => {
          setProgress(null);
          setError(e.message);
        },
      },
    );
  };

  return (
    <Card title="1. Файл" data-testid="import-upload">
      <Flex vertical gap={16}>
        {companies && (
          <Form layout="vertical" style={{ maxWidth: 420 }}>
            <Form.Item
              label="Компания"
              extra="Строки файла без столбца «Компания» будут добавлены в эту компанию"
              style={{ marginBottom: 0 }}
            >
              <Select
                showSearch
                optionFilterProp="label"
                placeholder="Выберите компанию"
                options={companies}
                value={companyId}
                onChange={(v) => onCompany(v)}
                allowClear
                aria-label="Компания"
                data-testid="import-company"
              />
            </Form.Item>
          </Form>
        )}
        <div data-testid="import-dropzone">
          <Upload.Dragger
            accept={ACCEPT}
            multiple={false}
            showUploadList={false}
            disabled={upload.isPending}
            beforeUpload={(file) => {
              start(file);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">Перетащите файл сюда или нажмите, чтобы выбрать</p>
            <p className="ant-upload-hint">
              CSV ({IMPORT_ENCODINGS_TEXT}, разделитель {IMPORT_DELIMITERS_TEXT}) или Excel (.xlsx, первый лист). Первая строка —
              заголовки столбцов на русском или английском.
            </p>
          </Upload.Dragger>
        </div>
        {progress !== null && (
          <div data-testid="upload-progress">
            <Typography.Text>{progress < 100 ? `Загрузка «${fileName}»…` : `Проверка «${fileName}»…`}</Typography.Text>
            <Progress percent={progress} status="active" />
          </div>
        )}
        {error && (
          <Alert type="error" showIcon message={`Файл «${fileName}» не принят`} description={error} data-testid="upload-error" />
        )}
      </Flex>
    </Card>
  );
}
