import type { Request } from 'express';
import type { EventHub } from '../../events/hub.js';
import type { Answer } from './run-once.js';

interface AssetAnswerBody {
  asset?: { id: string; title: string; state: string; revision: { number: number } };
}

const ASSET_PATH = /\/assets\/([^/]+)/;

/**
 * The event a successful asset write makes: a new revision (registration, revision, duplicate,
 * copy), a new title, a new state, a deletion for good. Erasing a revision's content makes none.
 */
export function announceAssetWrite(
  hub: EventHub,
  req: Request,
  accountNumber: number,
  answer: Answer,
): void {
  const asset = (answer.body as AssetAnswerBody | undefined)?.asset;
  const publish = (kind: string, data: Record<string, unknown>) =>
    void hub.publish({ kind, projectId: null, accountNumber, data });
  if (req.method === 'PATCH' && asset) {
    publish('asset.renamed', { asset_id: asset.id, title: asset.title });
  } else if (req.method === 'PUT' && asset) {
    publish('asset.state_changed', { asset_id: asset.id, state: asset.state });
  } else if (req.method === 'POST' && asset) {
    publish('asset.revised', { asset_id: asset.id, revision: asset.revision.number });
  } else if (req.method === 'DELETE' && !req.path.includes('/revisions/')) {
    const id = ASSET_PATH.exec(req.path)?.[1];
    if (id) publish('asset.state_changed', { asset_id: decodeURIComponent(id), state: 'removed' });
  }
}
