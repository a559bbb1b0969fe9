import { rules } from '../generated/rules.js';
import type { HandlerContext, HandlerTable } from '../handler-context.js';
import { page } from '../rules/links.js';
import { found, merchantFields, newestFirst, openModel, prefixedId } from '../state/records.js';
import { nextNumber, type OwnedRecord } from '../state/state.js';

/**
 * Payment files and their batches. The reference publishes none of their fields, nor the layout of the file or of
 * its reports: the sandbox keeps the upload as sent, makes one batch per file, finds no errors, and serves empty
 * reports in the media type each report is declared with.
 */

const filePath = (id: string) => `/payment-files/${encodeURIComponent(id)}`;
const batchPath = (id: string) => `/payment-batches/${encodeURIComponent(id)}`;
const fileModel = (context: HandlerContext, f: OwnedRecord) => openModel('paymentFileId', f, context.links.self(filePath(f.id)));
const batchModel = (context: HandlerContext, b: OwnedRecord) => openModel('paymentBatchId', b, context.links.self(batchPath(b.id)));

const visibleFile = (context: HandlerContext) => found(context.core.state.paymentFiles.get(context.params.paymentFileId!), 'payment file', context.params.paymentFileId!);

const emptyReport = (context: HandlerContext) => {
  visibleFile(context);
  return { status: 200, text: '', contentType: context.mediaType };
};

export const paymentFileHandlers: HandlerTable = {
  uploadPaymentFile: (context) => {
    const { state, clock } = context.core;
    const file: OwnedRecord = { id: prefixedId('PF', nextNumber(state)), createdAt: clock.now(), fields: merchantFields(context.body, ['paymentFileId']) };
    const batch: OwnedRecord = { id: prefixedId('PB', nextNumber(state)), createdAt: clock.now(), fields: { paymentFileId: file.id } };
    state.paymentFiles.set(file.id, file);
    state.paymentBatches.set(batch.id, batch);
    return { status: 201, json: fileModel(context, file), headers: { Location: context.links.href(filePath(file.id)) } };
  },
  listPaymentFiles: (context) => {
    const since = context.core.clock.now() - rules.paymentFiles.listWindowMs;
    const items = newestFirst(context.core.state.paymentFiles.values())
      .filter((f) => f.createdAt >= since)
      .map((f) => fileModel(context, f));
    return { status: 200, json: page(items, context.links, '/payment-files', context.query) };
  },
  getPaymentFile: (context) => ({ status: 200, json: fileModel(context, visibleFile(context)) }),
  listPaymentFileErrors: (context) => {
    const file = visibleFile(context);
    return { status: 200, json: page([], context.links, `${filePath(file.id)}/errors`, context.query) };
  },
  listPaymentBatchesForPaymentFile: (context) => {
    const file = visibleFile(context);
    const items = newestFirst(context.core.state.paymentBatches.values())
      .filter((b) => b.fields.paymentFileId === file.id)
      .map((b) => batchModel(context, b));
    return { status: 200, json: page(items, context.links, `${filePath(file.id)}/payment-batches`, context.query) };
  },
  getPaymentBatch: (context) => ({
    status: 200,
    json: batchModel(context, found(context.core.state.paymentBatches.get(context.params.paymentBatchId!), 'payment batch', context.params.paymentBatchId!)),
  }),
  downloadPaymentFileCsv2Report: emptyReport,
  downloadPaymentFileCsvReport: emptyReport,
  downloadPaymentFileFlatFileReport: emptyReport,
  downloadPaymentFileMtsRejectsReport: emptyReport,
};
