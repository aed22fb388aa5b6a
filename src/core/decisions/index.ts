// The decision model of every record (issue 21). Where is a record's chosen option read? options.ts. Its status?
// status.ts. Nygard decision prose ("We will use X")? prose.ts. The model's shape and its builder? record.ts.
export { decisionModelOf, DecisionRecordSchema, MAX_OPTIONS_IN_USE, type DecisionRecord } from "./record";
export { readOptions, optionName, coverage, contentWordsOf, ALTERNATIVES_HEADING, type ConsideredOption, type ChosenOption, type RejectedOption, type OptionsReading } from "./options";
export { readStatus, displayStatus, statusFromTable, type DecisionStatus, type StatusSource } from "./status";
export { readDecisionSentence, sentencesIn, MAX_SENTENCE_CHARS, type ProseReading, type LocatedSentence } from "./prose";
