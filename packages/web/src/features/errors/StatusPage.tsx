import { Button, Result, type ResultProps } from 'antd';
import type { ReactNode } from 'react';

interface StatusPageProps {
  status: ResultProps['status'];
  title: ReactNode;
  description: ReactNode;
  actionLabel: ReactNode;
  onAction: () => void;
}

/** A whole page outside the shell that says what went wrong and offers one way on. */
export function StatusPage({ status, title, description, actionLabel, onAction }: StatusPageProps) {
  return (
    <div className="yyp-status-page">
      <Result
        status={status}
        title={title}
        subTitle={description}
        extra={
          <Button type="primary" onClick={onAction}>
            {actionLabel}
          </Button>
        }
      />
    </div>
  );
}
