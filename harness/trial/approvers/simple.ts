/** The two bounds with no judgement: approve everything, or have no UI at all (every question is a "no"). */
import type { Approver } from "./types.ts";

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
