// The campaign progress bars at the top right of the main screen (application-spec §2, §9): each
// campaign now on, its community count against the next medal, refreshed every second.
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import './campaigns.css';
import { campaignProgress, campaignStatus, useCampaigns } from '../../api/campaigns';

export function CampaignBars() {
  const { t } = useTranslation();
  const campaigns = useCampaigns({ poll: true });
  // Status as of the list's fetch, refreshed every second.
  const now = campaigns.dataUpdatedAt;
  const active = (campaigns.data ?? []).filter((entry) => campaignStatus(entry, now) === 'active');
  if (active.length === 0) return null;
  const numbers = new Intl.NumberFormat(currentLocale());
  return (
    <section className="campaign-bars" aria-label={t('campaigns.region')} data-testid="campaign-bars">
      {active.map((entry) => {
        const { target, share } = campaignProgress(entry);
        const name = entry.meta.name[currentLocale()];
        const values = { count: numbers.format(entry.count), target: numbers.format(target) };
        return (
          <div key={entry.meta.id} className="campaign-bar">
            <span className="campaign-bar-name">{name}</span>
            <progress
              max={1}
              value={share}
              aria-label={t('campaigns.progressLabel', { name, ...values })}
              data-testid="campaign-progress"
            />
            <span className="campaign-bar-count">{t('campaigns.progress', values)}</span>
          </div>
        );
      })}
    </section>
  );
}
