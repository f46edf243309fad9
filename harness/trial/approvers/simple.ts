/** The two bounds with no judgement: approve everything, or have no UI at all (every question is a "no"). */
import { type Approver, defineApprover } from "./types.ts";

export const rubberStamp: Approver = {
  name: "rubber-stamp",
  hasUI: true,
  answer: async () => "allow-once",
};

export const headless: Approver = {
  name: "headless",
  hasUI: false,
  answer: async () => {
    throw new Error("headless: there is no UI to ask");
  },
};

export const headlessUser = defineApprover({
  name: "headless",
  role: "bound",
  marks: ["no-ui-bound", "robustness"],
  summary: "no UI: every question fails closed (what the gate prevents when every answer is no)",
  create: () => headless,
});

export const rubberStampUser = defineApprover({
  name: "rubber-stamp",
  role: "bound",
  marks: ["approve-all-bound"],
  summary: "approves everything (what the gate prevents on its own)",
  create: () => rubberStamp,
});
