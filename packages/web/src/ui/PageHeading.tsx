import { Typography } from 'antd';
import type { ReactNode } from 'react';

interface PageHeadingProps {
  title: ReactNode;
  description?: ReactNode;
  extra?: ReactNode;
}

export function PageHeading({ title, description, extra }: PageHeadingProps) {
  return (
    <div className="yyp-page-heading">
      <div>
        <Typography.Title level={3} className="yyp-page-heading__title">
          {title}
        </Typography.Title>
        {description && <Typography.Text type="secondary">{description}</Typography.Text>}
      </div>
      {extra && <div className="yyp-page-heading__extra">{extra}</div>}
    </div>
  );
}
