import { isRecipientEmail, MAILING_MSG } from '@forpost/contract/mailings';
import { Select, type SelectProps, Tag, Tooltip } from 'antd';

/** A typed address as the API will take it (trimmed, lower case). */
const isValid = (e: string) => isRecipientEmail(e.trim().toLowerCase());

/** Form rule: the spec's exact message; which address is wrong is shown by the red tag. */
export const recipientsValidator = async (_: unknown, list: string[] = []) => {
  if (!list.every(isValid)) throw new Error(MAILING_MSG.recipientInvalid);
};

/** Email addresses as tags (Enter, comma, semicolon or space ends one); an invalid address is a red tag. */
export function RecipientsSelect(props: Omit<SelectProps<string[]>, 'mode' | 'tagRender'>) {
  return (
    <Select<string[]>
      mode="tags"
      tokenSeparators={[',', ';', ' ']}
      open={false}
      suffixIcon={null}
      {...props}
      tagRender={({ label, value, closable, onClose }) => {
        const bad = !isValid(String(value));
        const tag = (
          <Tag
            color={bad ? 'error' : undefined}
            closable={closable}
            onClose={onClose}
            onMouseDown={(e) => e.preventDefault()}
            style={{ marginInlineEnd: 4 }}
            data-invalid={bad || undefined}
          >
            {label}
          </Tag>
        );
        return bad ? <Tooltip title={MAILING_MSG.recipientInvalid}>{tag}</Tooltip> : tag;
      }}
    />
  );
}
