/**
 * Words that name nothing in a repository: English function words, the words people use to
 * talk about code in general, and question words. The grounding check ignores them in an
 * answer's sentences, and prefetch ignores them in a question.
 */

/** The words, lower-case (compare with `word.toLowerCase()`). */
export const COMMON_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but not no nor so if then else when where which who whom whose what why how " +
    "is are was were be been being am do does did done has have had having can could will would shall should may might must " +
    "i you he she it we they me him her us them my your his its our their this that these those there here " +
    "of in on at by for with from to into onto over under about above below after before between through during " +
    "as than too very also only just all any both each few more most other some such same own " +
    "up down out off again further once yes true false none null nil undefined self this " +
    "file files line lines code function functions method methods class classes module modules package packages " +
    "variable variables value values type types object objects field fields attribute attributes property properties " +
    "import imports imported importing importer importers export exports exported " +
    "define defines defined definition definitions declare declares declared declaration " +
    "call calls called calling caller callers use uses used using usage return returns returned returning " +
    "set sets get gets create creates created make makes made handle handles handled handling " +
    "implement implements implemented implementation contain contains contained containing " +
    "def fn func let var const new static public private protected async await " +
    "see shown show shows found find finds located location locations answer question evidence repository repo " +
    "source sources path paths name names named first second last one two three new old main " +
    "instance instances parameter parameters argument arguments result results list lists string strings number numbers " +
    "based like e g eg ie etc " +
    "directly explain tell give please work works working happen happens describe describes summary summarize " +
    "anywhere everything anything every diff diffs change changes changed commit commits between since latest recent " +
    "does doing way ways part parts thing things happen other which whether"
  ).split(/\s+/),
);

