// 客户信息 (/piibs/agent/applicant/newUpdate/:id/:detail): the customer page shared with the applicant route.
export { default } from '@/components/customer/CustomerEditPage.tsx';
