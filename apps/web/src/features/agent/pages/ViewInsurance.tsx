// 查看投保单 (agent/viewInsurance/:id/:policyholderType): the application read-only, with its history.
export { default } from '@/components/application/ApplicationViewPage.tsx';
