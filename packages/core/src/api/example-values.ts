// Values the examples of both interfaces share: one project, one asset, one webhook, so that the
// examples of the documents tell one consistent story. A test checks each against its schema.

export const at = (minute: number) => `2026-03-02T09:${String(minute).padStart(2, '0')}:00+00:00`;

export const ids = {
  project: 'prj_4k9w2m7q1x8c3v6b0n5z',
  page: 'pg_7h3n9c2x5v1m8q4w6k0t',
  confirmation: 'cnf_2p8r5t1y7u3i9o4a6s0d',
  webhook: 'whk_5g1h7j3k9l2z8x4c6v0b',
  delivery: 'dlv_3q7w1e9r5t2y8u4i6o0p',
  asset: 'ast_9f3kd82jq7mc1xv0p4tz',
  production: 'ast_2m8v4c1x7z0b6n3q9w5e',
};

export const sha256 = {
  zip: '4a70fe9aa6436e02c2dea340fbd1e352e4ef2d8ce6ca52ad25d4b95471fc8bf2',
  page: '3660315a9af3df255d8f19ab077e4797822b41488a0e2a04bc6af71213c23274',
  png: '8f8cbb7dcf46e0bc7d53265749a6c17d116093a6ba95e442764060c76fd4a86c',
  blob: 'fa2c8cc4f28176bbeed4b736df569a34c79cd3723e9ec42f9674b4d46ac6b8b8',
};

export const requestKey = '4f1c2a9e-7b3d-4e8f-9a6b-2c5d8e1f0a7b';

/** The webhooks of an interface: a project's (v1) or the caller's own (v2, no project). */
export function webhookExamples(projectId: string | null, kind: string) {
  const webhook = {
    id: ids.webhook,
    url: 'https://hooks.example.org/galley',
    kinds: [kind],
    project_id: projectId,
    created_at: at(20),
  };
  const delivery = {
    id: ids.delivery,
    event_id: '42',
    status: 'delivered',
    attempts: 1,
    created_at: at(21),
    next_attempt_at: null,
    last_attempt_at: at(21),
    last_status: 204,
    last_response: '',
  };
  const params = { ...(projectId ? { id: projectId } : {}), webhook: ids.webhook };
  return {
    createWebhook: {
      ...(projectId ? { params: { id: projectId } } : {}),
      request: { url: webhook.url, kinds: [kind] },
      answer: { ...webhook, secret: 'whsec_MfKQ9r8GKYqXhI9sD7Vt4cBzW1aY2b3c4d5e6f7g8h0=' },
    },
    listWebhooks: {
      ...(projectId ? { params: { id: projectId } } : {}),
      answer: { webhooks: [webhook] },
    },
    deleteWebhook: { params },
    listDeliveries: { params, answer: { deliveries: [delivery] } },
    replayDelivery: {
      params: { ...params, delivery: ids.delivery },
      answer: {
        ...delivery,
        id: 'dlv_8w2e6r0t4y1u7i3o9p5a',
        status: 'pending',
        attempts: 0,
        created_at: at(30),
        next_attempt_at: at(30),
        last_attempt_at: null,
        last_status: null,
        last_response: null,
      },
    },
  };
}

/** `GET /schemas/{kind}/{version}` of either interface (the schema is cut short here). */
export const schemaExample = {
  params: { kind: 'project', version: '1' },
  answer: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'svc://schemas/project/1',
    title: 'project.json',
    type: 'object',
  },
};
