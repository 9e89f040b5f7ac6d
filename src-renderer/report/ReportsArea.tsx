import * as Tabs from '@radix-ui/react-tabs';
import type { Route } from '../router';
import { navigate } from '../router';
import { QualityReportPage } from '../quality/QualityReportPage';
import { QualityReviewPage } from '../quality/QualityReviewPage';
import { usePermissions } from '../session/session';
import { QuestionsPage } from './QuestionsPage';
import { ReportPage } from './ReportPage';
import { TeamPanelPage } from './TeamPanelPage';

const TABS = [
  { id: 'falhas', label: 'Falhas de validação', requires: 'fila' },
  { id: 'perguntas', label: 'Perguntas', requires: 'vendas' },
  // Supervisors only (#39.3): other roles never get the tab.
  { id: 'equipe', label: 'Equipe', requires: 'supervisao' },
  // Quality sampling (#39.4), supervisors only.
  { id: 'revisao-qualidade', label: 'Revisão de qualidade', requires: 'supervisao' },
  { id: 'qualidade', label: 'Qualidade', requires: 'supervisao' },
] as const;
type TabId = (typeof TABS)[number]['id'];
const isTab = (v: string | undefined): v is TabId => TABS.some((t) => t.id === v);

/** The Relatório area: extraction failures (support) and sales questions (finance), side by side. */
export function ReportsArea({ route }: { route: Route }) {
  // Only the reports the person may read (#40.2): support never meets the sales report's door.
  const { can } = usePermissions();
  const tabs = TABS.filter((t) => can(t.requires));
  const asked: TabId = isTab(route.rest[0]) ? route.rest[0] : 'falhas';
  const tab = tabs.some((t) => t.id === asked) ? asked : (tabs[0]?.id ?? asked);
  return (
    <Tabs.Root
      className="report-tabs"
      value={tab}
      onValueChange={(v) =>
        isTab(v) && v !== 'falhas' ? navigate('relatorio', v) : navigate('relatorio')
      }
      activationMode="manual"
    >
      <Tabs.List className="report-tab-list" aria-label="Relatórios">
        {tabs.map((t) => (
          <Tabs.Trigger key={t.id} value={t.id} className="report-tab">
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="falhas">{tab === 'falhas' ? <ReportPage /> : null}</Tabs.Content>
      <Tabs.Content value="perguntas">
        {tab === 'perguntas' ? <QuestionsPage /> : null}
      </Tabs.Content>
      <Tabs.Content value="equipe">{tab === 'equipe' ? <TeamPanelPage /> : null}</Tabs.Content>
      <Tabs.Content value="revisao-qualidade">
        {tab === 'revisao-qualidade' ? <QualityReviewPage /> : null}
      </Tabs.Content>
      <Tabs.Content value="qualidade">
        {tab === 'qualidade' ? <QualityReportPage /> : null}
      </Tabs.Content>
    </Tabs.Root>
  );
}
