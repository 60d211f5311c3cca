/**
 * The lead-qualification form of docs/logic.md: big companies (over 200 employees, or the `enterprise`
 * plan from the URL) book a demo and finish at a completion step; students are turned away at an
 * invalid step; everyone else sees pricing and finishes there.
 */
export const QUALIFICATION_HIDDEN_FIELDS = ['utm_source', 'plan'];

export const QUALIFICATION_STEPS = [
  {
    name: 'About you',
    key: 'about',
    components: [
      {
        type: 'IdentityInfo',
        key: 'who',
        content: {
          fields: [
            { key: 'emailAddress', label: 'Work e-mail' },
            { key: 'companyName', label: 'Company', required: false },
            { key: 'numberOfEmployees', label: 'Employees', required: false },
          ],
        },
      },
      { type: 'Dropdown', key: 'role', content: { question: 'Your role?', options: ['Founder', 'Engineer', 'Student', 'Other'] } },
    ],
    logic: {
      rules: [
        { if: { question: 'role', op: 'equals', value: 'Student' }, then: { goTo: 'students' } },
        {
          if: {
            any: [
              { question: 'who', field: 'numberOfEmployees', op: 'greaterThan', value: 200 },
              { hidden: 'plan', op: 'equals', value: 'enterprise' },
            ],
          },
          then: { goTo: 'demo' },
        },
      ],
      next: 'pricing',
    },
  },
  { name: 'Students', key: 'students', invalid: true, components: [{ type: 'Header', content: { title: 'Thanks!', subheading: 'This offer is for companies.' } }] },
  {
    name: 'Book a demo',
    key: 'demo',
    components: [
      { type: 'CalendlyScreen', key: 'meeting', content: { url: 'https://calendly.com/acme/demo', message: 'Pick a time' } },
      { type: 'LongInput', key: 'needs', content: { question: 'What should we prepare?', required: true } },
    ],
  },
  { name: 'Booked', key: 'booked', completion: true, components: [{ type: 'Header', content: { title: 'See you soon', subheading: 'Your demo is booked.' } }] },
  {
    name: 'Pricing',
    key: 'pricing',
    components: [
      { type: 'Header', content: { title: 'Plans for small teams' } },
      { type: 'MultipleOptionsQuestion', key: 'interest', content: { question: 'Which plan?', choices: ['Starter', 'Growth'] } },
    ],
  },
];
