// 客户信息 (/piibs/applicant/newUpdate/:id/:detail): the customer page shared with the agent's route.
export { default } from '@/components/customer/CustomerEditPage.tsx';
