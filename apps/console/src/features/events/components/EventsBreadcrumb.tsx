import { HomeOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { Breadcrumb } from 'antd';
import type { EventSection } from '../../shell/sections';
import { lastListSearch } from '../model/search';

/** Главная › Мониторинг › <Раздел> [› Событие №id]. */
export function EventsBreadcrumb({ section, eventId }: { section: EventSection; eventId?: number }) {
  return (
    <Breadcrumb
      data-testid="breadcrumbs"
      items={[
        {
          key: 'home',
          title: (
            <Link to="/" aria-label="Главная">
              <HomeOutlined /> Главная
            </Link>
          ),
        },
        { key: 'group', title: 'Мониторинг' },
        {
          key: 'section',
          title:
            eventId === undefined ? (
              section.label
            ) : (
              <Link to="/$section" params={{ section: section.section }} search={lastListSearch(section.section)}>
                {section.label}
              </Link>
            ),
        },
        ...(eventId === undefined ? [] : [{ key: 'event', title: `Событие №${eventId}` }]),
      ]}
    />
  );
}
