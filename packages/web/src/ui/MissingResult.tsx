import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

interface MissingResultProps {
  status?: '403' | '404';
  title: ReactNode;
  description: ReactNode;
  backTo: string;
  backLabel: ReactNode;
}

/** Inside the shell: the thing asked for does not exist, cannot be seen, or may not be used. */
export function MissingResult({ status = '404', title, description, backTo, backLabel }: MissingResultProps) {
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={title}
      subTitle={description}
      extra={
        <Button type="primary" onClick={() => void navigate(backTo)}>
          {backLabel}
        </Button>
      }
    />
  );
}
